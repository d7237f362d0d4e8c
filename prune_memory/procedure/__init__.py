"""The procedure's steps, one module each, in the order a pass runs them (README's table).

1. the snapshot (store/snapshot.py) — the verified copy outside the directory, first
2. inventory.py — every entry, its class (analysis/classify.py), how often it is read
3. staleness.py — each claim against the repo (the probes are in evidence/)
4. fidelity.py — duplicates and contradictions; the hygiene checks (analysis/hygiene.py):
   secrets, noise, poison and the never-persist rules; filters.py writes the policy
5. decide.py, rules.py, automation.py — the decision tree, and which evidence may act
   without a person; assemble.py turns the decisions into one Plan
6. review.py, review_state.py — a person's verdict on each proposal, and `--yes`'s policy
7. run_pass.py — the accepted verdicts, carried out by the engine (engine/)
8. auditlog.py — the audit section of pruning-log.md and the pass record
9. reachability.py, repairs.py, resynthesis.py — what the index reaches, what to repair,
   what the withdrawals broke

run_pass.py owns the pass: `run_pass` runs plan → review → snapshot → apply → log → scan
(`run`), with the review a callback from the CLI; `step_pass` makes one command's change a
pass of its own. pipeline.py runs steps 2–5 and only reads (`plan`); options.py holds what a
pass is run with. Beside the pass: status.py (`status`), due.py (`due`) and sweep.py
(`sweep --apply`, after a rename).
"""
