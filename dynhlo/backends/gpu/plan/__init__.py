"""Planning: which instructions share a generated kernel and the steps of each computation
(fusion.py), and the plan as JSON-ready data for AOT artifacts (data.py)."""
