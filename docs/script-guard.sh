# Sourced by each shell script of docs/ before it does anything, so that --help, an unknown
# option or a wrong count of arguments never starts a measurement (a review found --help taken
# for a label or a file name, and fifty runs made into a file named "--help"):
#   --help         the script's "# usage:" line and the comment above it, exit 0
#   -X as $1       one line naming the usage, exit 2
#   too few, too many arguments: the same
# The script sets GUARD_ARGS to "MIN MAX" (MAX "-" for any number) and then sources this, the
# caller's arguments left as they are:
#   GUARD_ARGS='1 2'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
# (bash, unlike dash, goes on past a file it cannot source: hence the exit)
guard_name=$(basename "$0")
guard_usage=$(sed -n 's/^# usage: //p' "$0" | head -n 1)
guard_refuse () {
  echo "$guard_name: $1 (usage: $guard_usage)" >&2
  exit 2
}
case "${1-}" in
  --help|-h)
    echo "usage: $guard_usage"
    # the header comment, from line 1 where the script has no #! line
    guard_from=2
    head -n 1 "$0" | grep -q '^#!' || guard_from=1
    sed -n "$guard_from,/^[^#]/s/^# \{0,1\}//p" "$0" | grep -vi '^usage: '
    exit 0 ;;
  -*) guard_refuse "unknown option '$1'" ;;
esac
guard_min=${GUARD_ARGS%% *}
guard_max=${GUARD_ARGS##* }
if [ "$#" -lt "$guard_min" ]; then
  guard_refuse "takes at least $guard_min argument(s), not $#"
fi
if [ "$guard_max" != - ] && [ "$#" -gt "$guard_max" ]; then
  guard_refuse "takes at most $guard_max argument(s), not $#"
fi
# guard_count NAME VALUE: a count of trials or pairs, a whole number from 1 to 10,000 (a larger
# one is a typo that would run for weeks), else one line naming it and the usage, exit 2
guard_count () {
  case "$2" in
    ''|*[!0-9]*) guard_refuse "$1 must be a whole number, not '$2'" ;;
    # six digits or more: past 10,000, and past what test(1) compares without an error
    ?????[0-9]*) guard_refuse "$1 must be from 1 to 10000, not $2" ;;
  esac
  if [ "$2" -lt 1 ] || [ "$2" -gt 10000 ]; then guard_refuse "$1 must be from 1 to 10000, not $2"; fi
}

# guard_env ARG...: each must be NAME=VALUE (a review: run.sh LABEL --help handed --help to env,
# and then ran wrk nine times against no server)
guard_env () {
  for guard_arg in "$@"; do
    case "$guard_arg" in
      [A-Za-z_]*=*) ;;
      *) guard_refuse "'$guard_arg' is no NAME=VALUE for the environment" ;;
    esac
  done
}
