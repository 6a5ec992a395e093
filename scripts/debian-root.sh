# debian-root.sh: what make check-upgrade and make check-fresh share, sourced
# by both (bash; they define say and die first). A Debian root made by
# mmdebstrap and kept in a cache outside the build directory; the committed
# tree cloned for it; a command run inside it. Mounts exist only in a
# private mount namespace, so they end with it, also when interrupted.

# at_exit CMD: run CMD when the script ends, however it ends (exit, die,
# Ctrl-C, TERM, HUP). A script sourcing this file adds its clean-ups here:
# an EXIT trap of its own would replace the others (the lock's among them).
exit_cmds=:
at_exit() { exit_cmds="$1; $exit_cmds"; trap "$exit_cmds" EXIT; }
trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP

# suite_known SUITE DIR: die in one line unless the Debian mirror this
# machine's apt uses (for $from) serves SUITE: its dists/SUITE/InRelease,
# fetched by apt's own helper into a temporary directory below DIR (in the
# build directory), removed at once. Before any work: a misspelt suite is
# this line, not mmdebstrap's generic failure after the installs.
suite_known() {
	local mirror tmp rc
	mirror=$(apt_uri "$from")
	[ -n "$mirror" ] || die "no Debian mirror for $from in /etc/apt (sources.list, sources.list.d)"
	mkdir -p "$2" && tmp=$(mktemp -d "$2/suite.XXXXXX") || exit 2
	/usr/lib/apt/apt-helper download-file "$mirror/dists/$1/InRelease" "$tmp/InRelease" > "$tmp/log" 2>&1
	rc=$?
	if [ $rc != 0 ] && grep -q ' 404 ' "$tmp/log"; then
		rm -rf "$tmp"; die "SUITE '$1': the mirror $mirror has no such suite (no dists/$1/InRelease)"
	elif [ $rc != 0 ]; then
		rc=$(grep '^E: ' "$tmp/log" | head -n 1); rm -rf "$tmp"
		die "cannot ask the mirror $mirror for SUITE '$1': ${rc:-apt-helper failed}"
	fi
	rm -rf "$tmp"
}

# root_only: both checks need root (mmdebstrap, chroot, mounts): without it
# one line and exit 0.
root_only() {
	if [ "$(id -u)" != 0 ]; then
		say "skipped: needs root (mmdebstrap, chroot and mounts)"
		exit 0
	fi
}

# root_cache NAME WORK: what the checks run here installed (mmdebstrap, git);
# root=$UPGRADE_CACHE/NAME (default cache
# /var/cache/split-state-lab), refused if it is something this suite did not
# make; WORK created (work= its absolute path); the lock NAME.lock held on
# descriptor 9 for the rest of the script, and removed when it ends (whose
# file a waiting run may have opened meanwhile: each run locks the file that
# is on disk once it holds the lock, or tries again).
root_cache() {
	"$top/scripts/deps" mmdebstrap git >&2 || exit 2
	cache=${UPGRADE_CACHE:-/var/cache/split-state-lab}
	case $cache in /?*) ;; *) die "UPGRADE_CACHE must be an absolute directory other than / (is '$cache')" ;; esac
	root=$cache/$1
	[ ! -e "$root" ] || [ -e "$root/.split-state-lab-root" ] ||
		die "$root exists and is not a root this check made: remove it or set UPGRADE_CACHE"
	mkdir -p "$cache" "$2" || exit 2
	work=$(cd "$2" && pwd)
	lock=$cache/$1.lock
	while :; do
		exec 9>>"$lock"
		flock -n 9 || die "another check of $1 is running (lock $lock)"
		[ "$(stat -c %d:%i "$lock" 2>/dev/null)" = "$(stat -L -c %d:%i /proc/self/fd/9)" ] && break
	done
	at_exit 'rm -f "$lock"'
}

# root_make SUITE INCLUDE: a SUITE root in $root (variant apt: the essential
# packages, apt and INCLUDE, a comma list), from the mirror this machine's
# apt uses (read at run time, never written down). It gets the marker
# .split-state-lab-root (the date it was made) and replaces what was there
# only once complete; mmdebstrap's output goes to $work/mmdebstrap.log.
root_make() {
	local mirror security sources
	mirror=$(apt_uri "$from")
	[ -n "$mirror" ] || die "no Debian mirror for $from in /etc/apt (sources.list, sources.list.d)"
	security=$(apt_uri "$from-security")
	sources=("deb $mirror $1 main" "deb $mirror $1-updates main")
	[ -n "$security" ] && sources+=("deb $security $1-security main")
	rm -rf "$root.new"
	# Without the descriptors this shell holds (the lock on 9, any inherited):
	# apt hands mmdebstrap's pipe to "sh -c 'cat >&N'", and dash refuses an N
	# above 9 ("Bad fd number"), which the lowest free number reaches here.
	(
		for fd in /proc/self/fd/*; do
			n=${fd##*/}; [ "$n" -gt 2 ] 2>/dev/null && eval "exec $n>&-"
		done
		exec mmdebstrap --variant=apt --include="$2" --components=main "$1" "$root.new" "${sources[@]}"
	) > "$work/mmdebstrap.log" 2>&1 || { rm -rf "$root.new"; die "mmdebstrap failed: $(tail -n 1 "$work/mmdebstrap.log")"; }
	date -u +%FT%TZ > "$root.new/.split-state-lab-root"
	rm -rf "$root" && mv "$root.new" "$root"
}

# apt_uri SUITE: the URI serving SUITE (as this machine names it) in /etc/apt.
apt_uri() {
	{
		cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v s="$1" '
			/^[ \t]*$/ { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " s " ") && uri != "") print uri; types = suites = uri = ""; next }
			/^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
			/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
			/^URIs:/ { uri = $2 }
			END { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " s " ") && uri != "") print uri }'
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			sed 's/\[[^]]*\]//' | awk -v s="$1" '$1 == "deb" && $3 == s { print $2 }'
	} | head -n 1
}

# tree_clone DEST: the committed tree (HEAD; head= its commit) in DEST.
tree_clone() {
	head=$(git -C "$top" rev-parse HEAD) || die "the source tree is not a git checkout"
	[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] ||
		say "note: uncommitted changes are not part of the check (it runs commit ${head:0:12})"
	rm -rf "$1"
	git clone -q --no-checkout "$top" "$1" && git -C "$1" checkout -q "$head" || die "cannot clone the tree into $1"
}

# in_root DIR SH-ARGS...: /bin/sh SH-ARGS (a script inside the root and its
# arguments, or -c COMMAND) run by chroot in DIR, in an empty environment (env -i: neither the caller's make
# variables nor its jobserver reach it), in a private mount namespace. DIR is
# made a mount point first (the emulated rxe tier needs / to be one): an
# overlay of $root when OVERLAY=<dir> is set (its upper and work
# directories below it: the pristine root stays as made), else $root bound
# onto itself; TREE=<dir> is bound at TREE_AT (default /split-state-lab;
# check-fresh puts it where a newcomer would, /root/src); then proc, sys and
# the host's /dev. The root reaches the network as this machine does: its
# resolver and the certificates it trusts are copied in (npm's TLS, where a
# proxy re-signs it, fails otherwise). PLAIN_ROOT=1: the root's / is a plain
# directory, not a mount point, as in many build chroots (there no process
# can make a private mount namespace: unshare cannot make / private): the
# overlay or bind is of the directory holding $root, and chroot enters $root's
# directory inside it. Exit 125: the mounts failed.
in_root() {
	local dir=$1; shift
	unshare --mount --propagation private -- sh -c '
		d=$1 r=$2 ovl=$3 tree=$4 at=$5 plain=$6; shift 6
		sub=
		[ -n "$plain" ] && sub=/${r##*/} r=${r%/*}
		if [ -n "$ovl" ]; then
			mkdir -p "$ovl/upper" "$ovl/work" &&
			mount -t overlay overlay -o "lowerdir=$r,upperdir=$ovl/upper,workdir=$ovl/work" "$d"
		else
			mount --bind "$r" "$d"
		fi || exit 125
		d=$d$sub
		if [ -n "$tree" ]; then mkdir -p "$d$at" && mount --bind "$tree" "$d$at" || exit 125; fi
		cp -L /etc/resolv.conf "$d/etc/resolv.conf" 2>/dev/null
		cp -L /etc/ssl/certs/ca-certificates.crt "$d/etc/ssl/certs/ca-certificates.crt" 2>/dev/null
		mount -t proc proc "$d/proc" && mount -t sysfs sys "$d/sys" && mount --rbind /dev "$d/dev" || exit 125
		exec chroot "$d" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin /bin/sh "$@"' \
		sh "$dir" "$root" "${OVERLAY-}" "${TREE-}" "${TREE_AT:-/split-state-lab}" "${PLAIN_ROOT-}" "$@"
}
