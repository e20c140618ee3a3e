# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the names engine's tests share (test-names.sh,
# test-names-churn.sh).  Source it first: it sources lib.sh and
# lib-reliability.sh, starts the counting (rel_init NAME) and skips
# without Debian's python3, which makes the odd trees.
#
#	. "$(dirname "$0")/lib-names.sh" names
#
# Sets DUMP (names_dump, from NAMES_DUMP or the build tree), XB (xbulk,
# from XBULK or the build tree) and PY.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DUMP=${NAMES_DUMP:-$TOP/build/tests/integration/names_dump}
XB=${XBULK:-$TOP/build/xbulk}
XBULK=$DUMP	# rel_init checks it is built
PY=/usr/bin/python3
. "$TOP/tests/integration/lib.sh"
. "$TOP/tests/integration/lib-reliability.sh"

rel_init "$1"
[[ -x $PY ]] || xb_skip "$PY not installed (Debian's python3)"
