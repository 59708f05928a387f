"""The rule sheet's "Build the harbour", "Make the harbour" and safety notes, as the tests' reference
for the phones' harbour guide (Paper Current's page.js draws it; the box itself never shows them)."""

from tidebox.games.paper_current.rules import BOATS, INNER_POINTS, OUTER_POINTS

# Every dimension of the rule sheet's "Build the harbour" and "Make the harbour", in centimetres.
# Distances along the lane are measured from its near end (where the players sit); "x" offsets are
# across the lane, negative to the left as seen by the seated player looking toward the harbour.
HARBOUR = {
    "unit": "cm",
    "ruler": "A ruler, rather than print scaling, is the authority for these dimensions.",
    "area": {"length": 80, "width": 30},  # the clear playing area (the lane)
    "launch_line": 10,  # from the near end of the lane
    "zone": {"width": 10, "x": {"left": -10, "centre": 0, "right": 10}},  # centre of each launch zone
    "sheet": {"paper": ("A4", "Letter"), "orientation": "portrait", "place": "far end of the lane"},
    "outer": {"width": 18, "height": 24, "label": "OUTER / 1", "points": OUTER_POINTS,
              "centred": "on the sheet", "beyond_line": 30, "near_edge": 40, "far_edge": 64},
    "inner": {"width": 10, "height": 12, "label": "INNER / 2", "points": INNER_POINTS,
              "centred": "in the outer rectangle"},
    "clear_behind": 10,  # at least this much clear table behind the sheet
    "boat": {"count": BOATS, "width": 3, "about": True, "labels": "1-8"},
}

SAFETY = (
    "Paper boats only: no metal clips, sharp folds, added weights or small hard projectiles.",
    "Test one gentle slide before the game to choose a safe force.",
    "The sheet must lie flat; tape its outer corners with removable tape only if the table owner permits.",
    "Do not use a delicate surface, send boats off an elevated edge, blow on pieces or aim toward people.",
    "Stop to clear cups and fragile objects before playing.",
    "Slide with one continuous push; the boat stays on the table. No throwing, no flicking into the air.",
    "Other hands stay out of the lane until everything stops.",
)
