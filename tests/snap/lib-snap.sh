#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The snap tests' start, after tests/integration/lib.sh: skip unless root,
# loop devices, XFS tools and sqlite3 are there; mount a fresh 1 GiB XFS
# of 4 AGs; $M is its mount point and $T a scratch directory off it.
# Source it.

xb_require_root_loop
command -v sqlite3 >/dev/null || xb_skip "sqlite3 not installed (scripts/deps)"
xb_mkfs_mount 1G "-d agcount=4"
M=$XB_MNT
T=$XB_TMP

# pass: the checks passed so far; ok: one more
pass=0
ok()
{
	pass=$((pass + 1))
}

# duck_setup: DUCK=node QUERY.mjs, a DuckDB (npm's @duckdb/node-api,
# installed into NPM_DIR on first use; default
# $XDG_CACHE_HOME/xbulk-tests/npm, shared by every build tree) whose
# "$DUCK" SQL prints each row's values space-separated; or DUCK empty
# (say why with duck_skip) when npm cannot reach its registry or is
# missing.  With access, an install or a load that fails is a failure.
duck_setup()
{
	local dir=${NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/xbulk-tests/npm}
	local mod=$dir/node_modules/@duckdb/node-api

	DUCK=
	if [[ ! -d $mod ]] && command -v npm >/dev/null; then
		mkdir -p "$dir"
		(cd "$dir" && timeout 300 npm install --no-audit --no-fund \
			--silent @duckdb/node-api >"$T/npm.log" 2>&1) || true
		if [[ ! -d $mod ]]; then
			timeout 60 npm ping >/dev/null 2>&1 &&
				xb_die "npm reaches its registry but did not install @duckdb/node-api: $(tail -5 "$T/npm.log")"
		fi
	fi
	[[ -d $mod ]] || return 0
	cat >"$dir/query.mjs" <<'EOF2'
import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const r = await con.runAndReadAll(process.argv[2]);
for (const row of r.getRows()) console.log(row.map(String).join(' '));
EOF2
	DUCK="node $dir/query.mjs"
	[[ $($DUCK "select 6 * 7" 2>&1) == 42 ]] ||
		xb_die "DuckDB does not load: $($DUCK "select 42" 2>&1 | tail -3)"
}

duck_skip()
{
	echo "SKIP: DuckDB: no access to the npm registry (npm ping failed, or no npm), so @duckdb/node-api is not installed; $*"
}
