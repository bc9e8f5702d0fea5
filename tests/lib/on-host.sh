# on-host.sh: run fence-trace on the host without ever tracing it.
# Sourced by tests/cli/test-cli, tests/cli/test-man, tests/golden/run-golden
# and tests/schema/test-schema.

# ft_on_host FENCE_TRACE [COMMAND [ARG]...]: run FENCE_TRACE with the
# arguments.  The host's kernel is never traced: as root, the commands that
# would touch tracefs or BPF run as user nobody, so that one whose parser
# wrongly went on (a --help, a bad option taken) fails on permissions.
# Without setpriv (util-linux) that cannot be done: it fails instead of
# running as root.
ft_on_host() {
	local ft=$1
	shift
	case ${1:-} in
	record | latency | top | stall | check)
		if [ "$EUID" = 0 ]; then
			if ! command -v setpriv >/dev/null; then
				echo "ft_on_host: no setpriv to run 'fence-trace $1' as nobody" >&2
				return 126
			fi
			setpriv --reuid=65534 --regid=65534 --clear-groups "$ft" "$@"
			return
		fi ;;
	esac
	"$ft" "$@"
}
