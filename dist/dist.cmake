# SPDX-License-Identifier: MIT
# Generated documents, installation and the Debian package. Included by CMakeLists.txt after
# the targets and tests it refers to.
include(GNUInstallDirs)

# --- documents from the tables: never written by hand, so never out of date -------------
add_library(pbdoc STATIC dist/doc.c)
target_include_directories(pbdoc PUBLIC dist)
target_link_libraries(pbdoc PUBLIC pbcore)
add_executable(pktbench-gendoc dist/gendoc.c)
target_link_libraries(pktbench-gendoc PRIVATE pbdoc)
if(TARGET test_doc)
  target_link_libraries(test_doc PRIVATE pbdoc)
  target_compile_definitions(test_doc PRIVATE PB_BINARY_DIR="${CMAKE_BINARY_DIR}"
    PB_PKTBENCH="$<TARGET_FILE:pktbench>")
endif()

set(PB_PREFIX "${CMAKE_INSTALL_PREFIX}")
include(${CMAKE_SOURCE_DIR}/dist/paths.cmake)
set(PB_MAN ${CMAKE_BINARY_DIR}/pktbench.8)
set(PB_COMPLETION ${CMAKE_BINARY_DIR}/pktbench.bash-completion)
set(PB_FUZZ_KEYS ${CMAKE_BINARY_DIR}/scenario-keys.dict)
add_custom_command(OUTPUT ${PB_MAN}
  COMMAND pktbench-gendoc man -o ${PB_MAN} ${PB_GENDOC_PATHS}
  DEPENDS pktbench-gendoc COMMENT "pktbench.8 from the option tables" VERBATIM)
add_custom_command(OUTPUT ${PB_COMPLETION}
  COMMAND pktbench-gendoc bash -o ${PB_COMPLETION}
  DEPENDS pktbench-gendoc COMMENT "bash completion from the option tables" VERBATIM)
add_custom_command(OUTPUT ${PB_FUZZ_KEYS}
  COMMAND pktbench-gendoc fuzz-dict -o ${PB_FUZZ_KEYS}
  DEPENDS pktbench-gendoc COMMENT "fuzz dictionary from the option table" VERBATIM)
add_custom_target(pb_docs ALL DEPENDS ${PB_MAN} ${PB_COMPLETION} ${PB_FUZZ_KEYS})

# --- install: FHS places -------------------------------------------------------------------
install(TARGETS pktbench RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR})
install(PROGRAMS scripts/plot DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME pktbench-plot)
install(DIRECTORY scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/pktbench/scenarios
  FILES_MATCHING PATTERN "*.yaml")
install(FILES ${PB_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME pktbench)
install(FILES dist/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/pktbench)
install(FILES dist/pktbench-receive.default DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/pktbench/examples)
# the man page and the unit name installed paths: made at install time for the real prefix
install(CODE "set(PB_GENDOC \"$<TARGET_FILE:pktbench-gendoc>\")
  set(PB_SRC \"${CMAKE_SOURCE_DIR}\")
  set(PB_BIN \"${CMAKE_BINARY_DIR}\")")
install(SCRIPT dist/install.cmake)

# --- the Debian package: cpack (or `cmake --build build --target package`) ------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pktbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "pktbench developers <pktbench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "measures which Linux send path is fastest, and by how much")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "measures which Linux send path is fastest, and by how much
 pktbench sends UDP through one Linux send path, or each in turn (AF_XDP, the
 kernel's XDP transmit loop, sendto, connected sockets, sendmmsg, io_uring, UDP
 GSO, raw sockets, an AF_PACKET ring, libpcap), for the same time, while a
 receiver counts what really arrived. It prints packets/s, wire Gb/s, delivered
 and accounted percentages and CPU cost per packet, and compares result sets.")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# Depends: what dpkg-shlibdeps finds the binary linked against, so the list is always the
# libraries this build really uses (a method whose library was missing adds none).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-matplotlib")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, man-db")
include(CPack)

# --- the packaging test: build the .deb, install it into an empty tree, use it ------------
add_test(NAME pkg/test_deb COMMAND bash ${CMAKE_SOURCE_DIR}/tests/pkg/test_deb.sh
  ${CMAKE_BINARY_DIR})
set_tests_properties(pkg/test_deb PROPERTIES LABELS pkg TIMEOUT 300 SKIP_RETURN_CODE 77)
