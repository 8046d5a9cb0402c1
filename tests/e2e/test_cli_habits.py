"""The terminal a person expects (issue 38, item 4): tables that fit 80 columns in a real
pseudo-terminal without breaking an id, ``runs show`` in sections, shell completion, "did
you mean", and credential errors that say how to give a token."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from rich.cells import cell_len

from tests.support.cli_shell import COLUMNS, PRAXIS, V1, V2, Shell, in_terminal
from tests.support.runtime import definition, json_out, node

LONG_REASON = (
    "stopped by the on-call human because the upstream search index was being rebuilt "
    "and every answer would have been stale for the next several hours"
)


def _waiting_run(shell: Shell, labels: tuple[str, ...] = ()) -> str:
    """An ad hoc run of one node no worker serves: it stays RUNNING."""
    (shell.home / "one.json").write_text(json.dumps(definition("a", a=node(output=json_out()))))
    extra = [item for label in labels for item in ("--label", label)]
    started = shell.ok("runs", "start", "-f", "one.json", "--json", *extra).json()
    return str(started["run"]["run_id"])


def test_runs_list_fits_80_columns_with_ids_whole_and_text_cut(shell: Shell) -> None:
    stopped = _waiting_run(shell)
    shell.ok("runs", "stop", stopped, "--reason", LONG_REASON)
    running = _waiting_run(shell)

    lines = in_terminal(shell, "runs", "list")
    assert all(cell_len(line) <= COLUMNS for line in lines), lines
    for run_id in (stopped, running):  # each id whole on one row of the terminal
        assert any(run_id in line for line in lines), (run_id, lines)
    assert any("…" in line for line in lines), lines  # the long reason, cut
    assert not any(LONG_REASON in line for line in lines)

    plain = in_terminal(shell, "runs", "list", colour=False)  # NO_COLOR: no box, same fit
    assert all(cell_len(line) <= COLUMNS for line in plain), plain
    assert plain[0].startswith("RUN ") and any(stopped in line for line in plain), plain
    assert any("…" in line for line in plain), plain

    wide = in_terminal(shell, "runs", "list", "--wide")  # every column, every text whole
    assert any(LONG_REASON in line for line in wide), wide
    assert any("CREATED" in line for line in wide) and any("WORK ORDER" in line for line in wide)
    listed = shell.ok("runs", "list", "--json").json()  # --json: every field, whole
    assert LONG_REASON in [run["result_error"] for run in listed["runs"]]


def test_inbox_fits_80_columns_with_item_ids_whole(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    (shell.home / "v2.json").write_text(json.dumps(V2))
    policy = "safety=sha256:" + "a" * 64
    review = shell.ok("register", "wo-1/run-1", "-f", "v1.json", "--policy", policy).out
    digest = re.search(r"material digest: (sha256:[0-9a-f]{64})", review)
    assert digest
    shell.ok("register", "wo-1/run-1", "-f", "v1.json", "--policy", policy,
             "--digest", digest.group(1))  # fmt: skip
    proposal = "proposal-second-step-2026-12-07"
    shell.ok("propose", "wo-1/run-1", proposal, "-f", "v2.json", "--summary",
             "add a second step that checks every answer against the source documents "
             "before anything is sent to the customer", who="agent")  # fmt: skip

    lines = in_terminal(shell, "inbox")
    assert all(cell_len(line) <= COLUMNS for line in lines), lines
    assert any(proposal in line for line in lines), lines
    assert any("…" in line for line in lines), lines


def test_runs_show_is_sections_that_fit_80_columns(shell: Shell) -> None:
    run_id = _waiting_run(shell, ("team=search",))
    shell.ok("runs", "stop", run_id, "--reason", LONG_REASON)

    lines = in_terminal(shell, "runs", "show", run_id)
    assert lines[0] == f"Run {run_id}", lines
    # Every line fits, but one holding a digest (an id longer than its room: never broken).
    assert all(cell_len(line) <= COLUMNS for line in lines if "sha256:" not in line), lines
    assert any(re.search(r"sha256:[0-9a-f]{64}$", line) for line in lines), lines
    nodes = lines.index("Nodes (1)")
    assert any(re.search(r"\ba\b.*CANCELLED", line) for line in lines[nodes:]), lines
    assert any("team=search" in line for line in lines[:nodes])
    # The run's error, whole, wrapped between words under its label.
    error = next(i for i, line in enumerate(lines) if line.startswith("error:"))
    assert " ".join(" ".join(lines[error:nodes]).split()[1:]).endswith(LONG_REASON), lines
    wide = in_terminal(shell, "runs", "show", run_id, "--wide")
    assert any(LONG_REASON in line for line in wide), wide


def test_completion_scripts_complete_commands_and_flags(tmp_path: Path) -> None:
    for shell_name in ("bash", "zsh", "fish"):
        done = subprocess.run([PRAXIS, "completion", shell_name], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        assert done.returncode == 0 and "runs" in done.stdout and "--state" in done.stdout
    script = tmp_path / "praxis.bash"
    script.write_text(subprocess.run([PRAXIS, "completion", "bash"], capture_output=True,
                                     text=True, timeout=60, check=True).stdout)  # fmt: skip
    probe = f"""
source {script}
complete -p praxis >/dev/null || exit 3
_try() {{
  COMP_WORDS=("$@"); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
  COMP_LINE="${{COMP_WORDS[*]}}"; COMP_POINT=${{#COMP_LINE}}; COMPREPLY=()
  _shtab_praxis; echo "${{COMPREPLY[*]}}"
}}
_try praxis ru
_try praxis runs li
_try praxis runs list --st
_try praxis runs list --state ""
"""
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "runs",
        "list",
        "--state --started-by",
        "awaiting-nodes cancelled cancelling completed completing failed failing running",
    ]
    wrong = subprocess.run([PRAXIS, "completion", "csh"], capture_output=True, text=True,
                           timeout=60)  # fmt: skip
    assert wrong.returncode == 2 and wrong.stderr.startswith("error: USAGE: ")


def test_a_mistyped_command_or_flag_names_the_closest(tmp_path: Path) -> None:
    cases = [
        (("rnus", "list"), "'runs'"),
        (("runs", "lst"), "'list'"),
        (("runs", "list", "--stae", "running"), "--state"),
        (("runs", "list", "--state", "runing"), "'running'"),
        (("inbx",), "'inbox'"),
    ]
    for argv, suggestion in cases:
        done = subprocess.run([PRAXIS, *argv], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, (argv, done)
        line = done.stderr.strip()
        assert line.startswith("error: USAGE: ") and "\n" not in line, (argv, line)
        assert f"did you mean {suggestion}?" in line, (argv, line)
    unknown = subprocess.run([PRAXIS, "runs", "list", "--zzzzzz"], capture_output=True,
                             text=True, timeout=60)  # fmt: skip
    assert unknown.returncode == 2 and "did you mean" not in unknown.stderr
    assert "(see 'praxis runs list --help')" in unknown.stderr  # the command's own help


def test_credential_errors_say_how_to_give_a_token(shell: Shell) -> None:
    for token, reason in ((None, "CREDENTIAL_MISSING"), ("wrong", "CREDENTIAL_INVALID")):
        refused = shell.run("inbox", who=None, token=token)
        line = refused.error_line()
        assert refused.code == 4 and line.startswith(f"error: {reason}: "), line
        for way in ("PRAXIS_TOKEN", "--token", "praxis login"):
            assert way in line, line
        assert "authorization: Bearer" not in line
