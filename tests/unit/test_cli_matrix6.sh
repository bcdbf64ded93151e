# SPDX-License-Identifier: MIT
# test_cli_matrix.sh's combinations with IPv6 addresses (its header says what is checked)
CLI_FAMILY=6 . "$(dirname "$0")/test_cli_matrix.sh"
