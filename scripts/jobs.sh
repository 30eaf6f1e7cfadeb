# A small job runner for scripts/demo.sh and scripts/test.sh (sourced, after env.sh).
#   job NAME "DEP1|DEP2" CMD...   declare a job: CMD runs once every DEP has succeeded
#                                 (names may hold spaces; empty DEPs are ignored)
#   run_jobs                      run them, at most $GUNBAI_JOBS at once (default 4),
#                                 earlier-declared jobs first when several are ready;
#                                 jobs named "setup: ..." (mostly downloads, quick when
#                                 cached) do not count against that limit; jobs named
#                                 "build: ..." and "dist: ..." (what the checks wait for)
#                                 count, but start when ready even at the limit, so that
#                                 no check started after them delays them
#   JOB_NICE[NAME]=N              run that job at niceness N (off the critical path: it
#                                 then takes the CPU the others leave) and outside the
#                                 limit (a starved job holding a place would keep a check
#                                 from starting)
# Each job's output goes to $JOB_LOGS/NAME.log and is printed as a whole when the job
# ends (so parallel jobs do not interleave), with its time. A failed job's dependents
# are skipped; the others still run. run_jobs then prints every job's time and fails
# if any job failed or was skipped.
JOB_LOGS="${JOB_LOGS:-$ROOT/target/logs}"
JOB_NAMES=()
declare -A JOB_DEPS JOB_CMD JOB_STATE JOB_START JOB_TIME JOB_NICE JOB_COUNTED

# A job's files: its name with anything but letters, digits, '.', '-' and '_' as '_'.
_job_file() { local n="${1//[^A-Za-z0-9._-]/_}"; echo "$JOB_LOGS/$n"; }

# Stop a job's whole process tree (by process id), when the runner itself is stopped.
_kill_tree() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do _kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}

job() {
  local name="$1" deps="$2"; shift 2
  JOB_NAMES+=("$name")
  JOB_DEPS[$name]="$deps"
  JOB_CMD[$name]="$(printf '%q ' "$@")"
  JOB_STATE[$name]=waiting
}

_now() { date +%s.%N; }
_secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# The job itself, in the background: CMD with `set -e` in force (it is not in a tested
# context), its status written next to its log.
_job_run() {
  local name="$1" f; f="$(_job_file "$1")"
  (
    set +e
    (
      set -e
      [ -z "${JOB_NICE[$name]:-}" ] || renice -n "${JOB_NICE[$name]}" -p "$BASHPID" >/dev/null
      eval "${JOB_CMD[$name]}"
    ) </dev/null >"$f.log" 2>&1 &
    wait "$!"
    echo "$?" >"$f.rc"
    # CPU seconds (user + system) of everything the job ran.
    # (`times` itself must run in this shell, not in a pipeline's subshell.)
    times >"$f.times"
    tail -n 1 "$f.times" |
      awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.0f\n", t }' >"$f.cpu"
    rm -f "$f.times"
  )
}

run_jobs() {
  local max="${GUNBAI_JOBS:-4}" t0; t0="$(_now)"
  rm -rf "$JOB_LOGS"; mkdir -p "$JOB_LOGS"
  declare -A pid_of
  local running=0 heavy=0 light first name dep ready pid rc failed=0 deps f
  # If the runner is stopped (or fails), it stops the jobs it started.
  trap 'for pid in "${!pid_of[@]}"; do _kill_tree "$pid"; done' EXIT
  while :; do
    # Skip the jobs that wait on a failed or skipped job; start the ready ones.
    for name in "${JOB_NAMES[@]}"; do
      [ "${JOB_STATE[$name]}" = waiting ] || continue
      ready=1
      IFS='|' read -r -a deps <<<"${JOB_DEPS[$name]}"
      for dep in "${deps[@]}"; do
        [ -n "$dep" ] || continue
        case "${JOB_STATE[$dep]:?unknown job $dep}" in
          ok) ;;
          failed | skipped) JOB_STATE[$name]=skipped; ready=0; printf '\n=== %s: skipped (%s did not pass)\n' "$name" "$dep"; break ;;
          *) ready=0 ;;
        esac
      done
      [ "$ready" = 1 ] || continue
      light=0; [[ "$name" != setup:* ]] && [ -z "${JOB_NICE[$name]:-}" ] || light=1
      case "$name" in build:* | dist:*) first=1 ;; *) first=0 ;; esac
      if [ "$light" = 1 ] || [ "$first" = 1 ] || [ "$heavy" -lt "$max" ]; then
        JOB_STATE[$name]=running; JOB_START[$name]="$(_now)"
        _job_run "$name" &
        JOB_COUNTED[$name]=$((1 - light))
        pid_of[$!]="$name"; running=$((running + 1)); heavy=$((heavy + ${JOB_COUNTED[$name]}))
      fi
    done
    [ "$running" -gt 0 ] || break
    pid=""; wait -n -p pid || true
    [ -n "$pid" ] && [ -n "${pid_of[$pid]:-}" ] || continue
    name="${pid_of[$pid]}"; unset "pid_of[$pid]"; running=$((running - 1))
    heavy=$((heavy - ${JOB_COUNTED[$name]}))
    JOB_TIME[$name]="$(_secs "${JOB_START[$name]}" "$(_now)")"
    f="$(_job_file "$name")"
    rc="$(cat "$f.rc" 2>/dev/null || echo 1)"
    if [ "$rc" = 0 ]; then JOB_STATE[$name]=ok; else JOB_STATE[$name]=failed; fi
    printf '\n=== %s (%s s, started at +%s s)\n' "$name" "${JOB_TIME[$name]}" "$(_secs "$t0" "${JOB_START[$name]}")"
    cat "$f.log" 2>/dev/null || echo "(no log: $f.log)"
    [ "$rc" = 0 ] || printf '=== %s FAILED (exit %s); its log: %s\n' "$name" "$rc" "$f.log"
  done
  printf '\n=== step times (wall clock; steps overlap: at most %s besides the setup steps, on %s cores; load average now %s)\n' \
    "$max" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
  printf '  %-50s %8s %8s\n' "step" "wall s" "CPU s"
  for name in "${JOB_NAMES[@]}"; do
    printf '  %-50s %8s %8s  %s\n' "$name" "${JOB_TIME[$name]:--}" "$(cat "$(_job_file "$name").cpu" 2>/dev/null || echo -)" \
      "${JOB_STATE[$name]}"
    [ "${JOB_STATE[$name]}" = ok ] || failed=$((failed + 1))
  done
  printf '  %-50s %8s %8s\n' "total" "$(_secs "$t0" "$(_now)")" \
    "$(cat "$JOB_LOGS"/*.cpu 2>/dev/null | awk '{ t += $1 } END { print t + 0 }')"
  trap - EXIT
  # The end of the output is what a CI summary shows: each failed step's last lines and
  # the machine's disk and memory come after the table.
  for name in "${JOB_NAMES[@]}"; do
    [ "${JOB_STATE[$name]}" = failed ] || continue
    printf '\n--- %s failed; the last lines of %s:\n' "$name" "$(_job_file "$name").log"
    tail -n 15 "$(_job_file "$name").log" 2>/dev/null | cut -c1-300
  done
  printf 'disk free: %s; memory available: %s MiB\n' "$(df -h --output=avail "$ROOT" | tail -n 1 | tr -d ' ')" \
    "$(awk '/MemAvailable/ { print int($2 / 1024) }' /proc/meminfo)"
  [ "$failed" = 0 ] || { printf '%s step(s) failed or skipped\n' "$failed"; return 1; }
}
