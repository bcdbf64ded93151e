# SPDX-License-Identifier: MIT
# Install-time part of `cmake --install` / cpack: the man page and the systemd unit name
# paths, so they are made for the prefix actually installed to. Expects PB_GENDOC (the
# generator), PB_SRC and PB_BIN (source and build trees).
set(PB_PREFIX "${CMAKE_INSTALL_PREFIX}")
include(${PB_SRC}/dist/paths.cmake)
set(gen ${PB_BIN}/install-gen)
file(MAKE_DIRECTORY ${gen})

execute_process(COMMAND ${PB_GENDOC} man -o ${gen}/pktbench.8 ${PB_GENDOC_PATHS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pktbench-gendoc man failed (${rc})")
endif()
file(REMOVE ${gen}/pktbench.8.gz)
execute_process(COMMAND gzip -9n ${gen}/pktbench.8 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip pktbench.8 failed (${rc})")
endif()
file(INSTALL ${gen}/pktbench.8.gz DESTINATION "${CMAKE_INSTALL_PREFIX}/share/man/man8")

set(PB_SBINDIR "${PB_P_SBIN}")
set(PB_ENVFILE "${PB_P_ENVFILE}")
configure_file(${PB_SRC}/dist/pktbench-receive@.service.in ${gen}/pktbench-receive@.service
  @ONLY)
get_filename_component(unitdir "${PB_P_UNIT}" DIRECTORY)
file(INSTALL ${gen}/pktbench-receive@.service DESTINATION "${unitdir}")
