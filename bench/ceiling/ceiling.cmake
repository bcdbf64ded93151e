# SPDX-License-Identifier: MIT
# The reference loops pktbench's performance is measured against (bench/ceiling.sh runs
# them): bench_live, the kernel's XDP live-frame transmit loop, and bench_xsk, a minimal
# AF_XDP copy-mode loop (with libxdp only); ref_drop.bpf.o is the lab's receiving end, and
# ref_loop.bpf.o a source of xdp_frames at a CPU's rate (bench/rx-cost.sh -x).
set(PB_REF_DIR ${CMAKE_SOURCE_DIR}/bench/ceiling)
set(PB_REF_OUT ${CMAKE_BINARY_DIR}/bench)
file(MAKE_DIRECTORY ${PB_REF_OUT})
foreach(prog ref_tx ref_drop ref_loop)
  add_custom_command(OUTPUT ${PB_REF_OUT}/${prog}.bpf.o
    COMMAND ${CLANG} -O2 -g -Wall -target bpf -I/usr/include/${PB_ARCH}-linux-gnu
            -c ${PB_REF_DIR}/${prog}.bpf.c -o ${PB_REF_OUT}/${prog}.bpf.o
    DEPENDS ${PB_REF_DIR}/${prog}.bpf.c
    COMMENT "BPF bench/ceiling/${prog}.bpf.c")
endforeach()
add_custom_command(OUTPUT ${PB_REF_OUT}/ref_tx.skel.h
  COMMAND ${BPFTOOL} gen skeleton ${PB_REF_OUT}/ref_tx.bpf.o name ref_tx > ${PB_REF_OUT}/ref_tx.skel.h
  DEPENDS ${PB_REF_OUT}/ref_tx.bpf.o
  COMMENT "skeleton ref_tx.skel.h")
add_custom_target(bench_bpf ALL DEPENDS ${PB_REF_OUT}/ref_tx.skel.h ${PB_REF_OUT}/ref_drop.bpf.o
  ${PB_REF_OUT}/ref_loop.bpf.o)

add_executable(bench_live ${PB_REF_DIR}/bench_live.c ${PB_REF_DIR}/ref_frame.c)
add_dependencies(bench_live bench_bpf)
target_include_directories(bench_live PRIVATE ${PB_REF_OUT})
target_link_libraries(bench_live PRIVATE PkgConfig::LIBBPF)
set_target_properties(bench_live PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PB_REF_OUT})
if(LIBXDP_FOUND)
  add_executable(bench_xsk ${PB_REF_DIR}/bench_xsk.c ${PB_REF_DIR}/ref_frame.c)
  target_link_libraries(bench_xsk PRIVATE PkgConfig::LIBXDP PkgConfig::LIBBPF)
  set_target_properties(bench_xsk PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PB_REF_OUT})
endif()
# bench_pace: a loop that only waits for each deadline of a rate, spinning or asleep: the
# machine's floor for a paced sender (bench/pace.sh runs it beside pktbench)
add_executable(bench_pace ${CMAKE_SOURCE_DIR}/bench/pace/bench_pace.c)
set_target_properties(bench_pace PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PB_REF_OUT})
