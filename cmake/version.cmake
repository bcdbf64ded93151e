# SPDX-License-Identifier: MIT
# Writes pb_version.h with "PROJECT_VERSION-git describe" at every build (not only at
# configure time), rewriting it only when it changed so nothing rebuilds needlessly.
execute_process(COMMAND git describe --always --dirty --tags
  WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE GIT_VERSION
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT GIT_VERSION)
  set(GIT_VERSION "unknown")
endif()
set(CONTENT "#define PB_VERSION \"${VERSION}-${GIT_VERSION}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} OLD)
endif()
if(NOT "${OLD}" STREQUAL "${CONTENT}")
  file(WRITE ${OUT} "${CONTENT}")
endif()
