"""The order of a bench round's configurations (docs/PERFORMANCE.md, "Issue 15: session 25").

In a fixed order each configuration always runs right after the same other one, and on this kind
of VM that alone moved a result: LULESH's first build through ompc++ measured 1.07 x plain where it
always followed a plain build on one CPU, 1.27 in a rotating order. The order therefore rotates by
one place per round, so that every configuration follows each other one equally often.
"""


def rotated(items, round_index):
    """items in the order of round round_index (0, 1, ...)."""
    items = list(items)
    shift = round_index % len(items)
    return items[shift:] + items[:shift]
