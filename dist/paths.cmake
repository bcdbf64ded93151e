# SPDX-License-Identifier: MIT
# Where an installation under PB_PREFIX puts things (FHS), for the man page's FILES section
# and the systemd unit. Used at configure time (the build's own copies) and again at install
# time, when the prefix is the real one (cpack installs under /usr whatever was configured).
if(PB_PREFIX STREQUAL "/usr")
  set(PB_P_SYSCONF "/etc")
else()
  set(PB_P_SYSCONF "${PB_PREFIX}/etc")
endif()
set(PB_P_SBIN "${PB_PREFIX}/sbin")
set(PB_P_SCENARIOS "${PB_PREFIX}/share/pktbench/scenarios")
set(PB_P_UNIT "${PB_PREFIX}/lib/systemd/system/pktbench-receive@.service")
set(PB_P_ENVFILE "${PB_P_SYSCONF}/default/pktbench-receive-%i")
set(PB_P_COMPLETION "${PB_PREFIX}/share/bash-completion/completions/pktbench")
set(PB_GENDOC_PATHS --scenarios "${PB_P_SCENARIOS}" --unit "${PB_P_UNIT}"
  --envfile "${PB_P_ENVFILE}" --completion "${PB_P_COMPLETION}")
