"""Real outputs from the histories kept outside the repository, used by more than one test
(each from a repository whose licence allows copying; the source is named at each)."""

from __future__ import annotations

#: entireio/git-sync's history (MIT, not in the repository): the agent set its fix aside
#: to see its new test fail on the code as it was.
STASHED_RED_STEP = (
    "Saved working directory and index state WIP on main: 7ac0134 Merge pull request #31\n"
    "=== RUN   TestObjectsToPushTransitiveMissing\n"
    "    planner_test.go:1304: ObjectsToPush: load object aaaa: object not found\n"
    "--- FAIL: TestObjectsToPushTransitiveMissing (0.00s)\nFAIL\n"
    "FAIL\tentire.io/entire/git-sync/internal/planner\t0.355s\nFAIL\nOn branch main\n"
    "Changes not staged for commit:\n\tmodified:   internal/planner/planner.go\n\n"
    'no changes added to commit (use "git add" and/or "git commit -a")\n'
    "Dropped refs/stash@{0} (59466966baaa7e764cb58eaa894c7d70a74d2a60)"
)
