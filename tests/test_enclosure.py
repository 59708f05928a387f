"""The printed case (enclosure/): renders cleanly, prints, and fits the parts it holds.

The parts are rendered once per session by host_tools/enclosure.py (reused while the .scad
sources are unchanged). Geometry is checked two ways: against the values each part echoes
(`echo("CHECK", ...)`), and by probing the triangle mesh itself with rays, so that a model
that echoes the right numbers but builds the wrong shape still fails.

Frames: base.stl is in the assembly frame of params.scad (origin at the centre of the
footprint, +Y away from the player, z = 0 on the table). lid.stl is the assembled lid turned
over about X: a point (x, y, z) of the assembled lid is at (x, -y, box_h - z) in the STL.
button_caps.stl holds the three caps flange down, as they sit in the box.
"""

import ast
import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
import trimesh

import enclosure

pytestmark = pytest.mark.slow  # renders the case with OpenSCAD and checks the meshes

ROOT = Path(__file__).resolve().parent.parent
ENCLOSURE = ROOT / "enclosure"

# Raspberry Pi Pico W / Pico 2 W datasheet values: the same for every board, not parameters.
PICO_SIZE = (51.0, 21.0)
PICO_HOLE_PATTERN = (47.0, 11.4)
PICO_HOLE_D = 2.1
BED = 180.0  # every part must fit a 180 x 180 x 180 mm build volume
MIN_WALL = 1.6
OVERHANG_NZ = -math.cos(math.radians(45)) - 1e-4  # facing down more steeply than 45 degrees
BRIDGE_MAX = 10.0  # mm: longest flat overhang accepted (bridges over holes, letters)


# --------------------------------------------------------------------------- fixtures


def read_params(path=ENCLOSURE / "params.scad"):
    """Plain `name = literal;` assignments of params.scad (the derived values are skipped)."""
    params = {}
    for line in path.read_text().splitlines():
        m = re.match(r"^\$?(\w+)\s*=\s*([^;]+);", line)
        if not m:
            continue
        text = m.group(2).strip().replace("true", "True").replace("false", "False")
        try:
            params[m.group(1)] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            continue
    return params


@pytest.fixture(scope="session")
def P():
    return read_params()


@pytest.fixture(scope="session")
def parts():
    try:
        return enclosure.build_parts()
    except enclosure.EnclosureError as e:  # openscad missing, or a warning in a log
        pytest.fail(f"rendering the enclosure failed: {e}", pytrace=False)


@pytest.fixture(scope="session")
def meshes(parts):
    return {name: trimesh.load(str(part.stl), force="mesh") for name, part in parts.items()}


# --------------------------------------------------------------------------- mesh probing


_tri_cache = {}


def _triangles(mesh):
    key = id(mesh)
    if key not in _tri_cache:
        tri = np.asarray(mesh.triangles, dtype=float)
        _tri_cache[key] = (mesh, tri[:, 0], tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    return _tri_cache[key][1:]


def ray_hits(mesh, origin, direction):
    """Distances along the ray to every surface it crosses, sorted (Moller-Trumbore, no extra libraries)."""
    o = np.asarray(origin, dtype=float)
    d = np.asarray(direction, dtype=float)
    d = d / np.linalg.norm(d)
    v0, e1, e2 = _triangles(mesh)
    p = np.cross(d, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = o - v0
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ d) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    hit = ok & (u >= -1e-9) & (v >= -1e-9) & (u + v <= 1 + 1e-9) & (t > 1e-9)
    ts = np.sort(t[hit])
    if len(ts) == 0:
        return []
    keep = np.concatenate([[True], np.diff(ts) > 1e-6])  # a ray through a shared edge hits twice
    return list(ts[keep])


def z_hits(mesh, x, y):
    """z of every surface crossed by a vertical line at (x, y), from the top down."""
    return [1000.0 - t for t in ray_hits(mesh, (x, y, 1000.0), (0, 0, -1))]


def top_z(mesh, x, y):
    hits = z_hits(mesh, x, y)
    return hits[0] if hits else None


def solid_at(mesh, x, y):
    return bool(z_hits(mesh, x, y))


def edge_distance(pred, start, direction, far, tol=0.005):
    """Distance from `start` along `direction` (2D) where pred(x, y) first turns true (bisection)."""
    sx, sy = start
    dx, dy = direction
    assert not pred(sx, sy), f"expected open at {start}"
    assert pred(sx + far * dx, sy + far * dy), f"expected material {far} mm from {start} toward {direction}"
    lo, hi = 0.0, far
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if pred(sx + mid * dx, sy + mid * dy):
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def through_thickness(mesh, origin, direction):
    """Thickness of the first piece of material a ray from outside passes through."""
    hits = ray_hits(mesh, origin, direction)
    assert len(hits) >= 2, f"ray from {origin} toward {direction} found no material"
    return hits[1] - hits[0]


def components(mesh):
    """Number of separate bodies (union-find over shared edges, no graph library needed)."""
    parent = list(range(len(mesh.faces)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in mesh.face_adjacency:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    return len({find(i) for i in range(len(parent))})


J = 0.0131  # probe offset that keeps rays off the edges of axis-aligned faces


# --------------------------------------------------------------------------- checks reused by the tests


def around(x, y, r, step=45):
    """Points on a circle of radius r around (x, y), kept off mesh edges."""
    return [(x + r * math.cos(math.radians(a)) + J, y + r * math.sin(math.radians(a)) + J)
            for a in range(0, 360, step)]


def check_standoffs(base, holes, z_top, pilot_d, standoff_d):
    """Each Pico hole has a standoff whose top is at z_top, with an open pilot hole in its middle."""
    for x, y in holes:
        centre = z_hits(base, x + J, y + J)
        assert centre and centre[0] < 1.0, f"no pilot hole at ({x}, {y}): first surface at {centre[:1]}"
        for px, py in around(x, y, pilot_d / 2 + 0.35):
            tz = top_z(base, px, py)
            assert tz is not None and abs(tz - z_top) < 0.01, f"standoff at ({x}, {y}) missing: {tz}"
        for px, py in around(x, y, standoff_d / 2 + 0.35):
            tz = top_z(base, px, py)
            assert tz is not None and tz < z_top - 0.5, f"standoff at ({x}, {y}) wider than {standoff_d} mm"
        pilot_r = edge_distance(lambda px, py: top_z(base, px, py) > z_top - 0.5, (x, y + J), (1, 0), 2)
        assert abs(2 * pilot_r - pilot_d) < 0.05, f"pilot hole at ({x}, {y}) is {2 * pilot_r:.2f} mm"


def measure_window(lid, centre):
    """The open rectangle around `centre` in the lid (STL frame): (x0, x1, y0, y1)."""
    cx, cy = centre[0] + J, centre[1] + J

    def pred(x, y):
        return solid_at(lid, x, y)

    return (cx - edge_distance(pred, (cx, cy), (-1, 0), 25), cx + edge_distance(pred, (cx, cy), (1, 0), 25),
            cy - edge_distance(pred, (cx, cy), (0, -1), 20), cy + edge_distance(pred, (cx, cy), (0, 1), 20))


def check_window(lid, window_centre, active, glass, min_margin=0.5):
    """The window shows the whole active area (with a margin for viewing angle) and only glass.

    active and glass are (centre x, centre y, width, height) in the lid's STL frame.
    """
    x0, x1, y0, y1 = measure_window(lid, window_centre)
    ax, ay, aw, ah = active
    assert x0 <= ax - aw / 2 - min_margin and x1 >= ax + aw / 2 + min_margin, \
        f"window x {x0:.2f}..{x1:.2f} does not clear the active area {ax - aw / 2:.2f}..{ax + aw / 2:.2f}"
    assert y0 <= ay - ah / 2 - min_margin and y1 >= ay + ah / 2 + min_margin, \
        f"window y {y0:.2f}..{y1:.2f} does not clear the active area {ay - ah / 2:.2f}..{ay + ah / 2:.2f}"
    gx, gy, gw, gh = glass
    assert gx - gw / 2 < x0 and x1 < gx + gw / 2 and gy - gh / 2 < y0 and y1 < gy + gh / 2, \
        "window larger than the glass: the module's board would show"
    # rays through the active area's centre and corners meet nothing; just outside the window they hit the lid
    for fx, fy in [(0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)]:
        px, py = ax + fx * (aw / 2 - 0.05) + J, ay + fy * (ah / 2 - 0.05) + J
        assert not solid_at(lid, px, py), f"the lid covers the active area at ({px:.2f}, {py:.2f})"
    for px, py in [(x0 - 0.5, ay), (x1 + 0.5, ay), (ax, y0 - 0.5), (ax, y1 + 0.5)]:
        assert solid_at(lid, px + J, py + J), f"no lid just outside the window at ({px:.2f}, {py:.2f})"
    return x0, x1, y0, y1


# --------------------------------------------------------------------------- rendering


def test_every_part_renders_without_warnings(parts):
    for name in enclosure.PARTS:
        part = parts[name]
        assert part.stl.exists() and part.stl.stat().st_size > 1000, f"{name}.stl missing"
        assert enclosure.log_problems(part.log) == [], f"{name}: {enclosure.log_problems(part.log)}"
        assert re.search(r"Simple:\s+yes", part.log), f"{name}: CGAL did not report a simple polyhedron"
        assert part.check("part"), f"{name}: the model echoed no CHECK values"


def test_log_problems_are_detected():
    log = 'ECHO: "CHECK", "x", 1\nWARNING: Object may not be a valid 2-manifold and may need repair!\n'
    warning = "WARNING: Object may not be a valid 2-manifold and may need repair!"
    assert enclosure.log_problems(log) == [warning]
    assert enclosure.parse_checks(log) == [["x", 1]]


def test_second_build_reuses_the_renders(parts):
    again = enclosure.build_parts()
    for name in enclosure.PARTS:
        assert again[name] is parts[name] or again[name].cached, f"{name} was rendered twice"


def test_meshes_are_watertight_solids(meshes):
    bodies = {"base": 1, "lid": 1, "button_caps": 3}
    for name, mesh in meshes.items():
        assert mesh.is_watertight, f"{name} is not watertight"
        assert mesh.is_winding_consistent, f"{name} has inconsistent winding"
        assert mesh.is_volume and mesh.volume > 0, f"{name} is not a positive volume"
        assert components(mesh) == bodies[name], f"{name}: {components(mesh)} bodies, expected {bodies[name]}"


def test_parts_fit_the_bed_and_lie_flat(parts, meshes):
    for name, mesh in meshes.items():
        size = mesh.bounds[1] - mesh.bounds[0]
        assert (size <= BED).all(), f"{name} is {size} mm: larger than {BED} mm"
        assert abs(mesh.bounds[0][2]) < 1e-4, f"{name} does not start at z = 0 (print orientation)"
        echoed = parts[name].one("part")[1:]
        assert np.allclose(size, echoed, atol=0.05), f"{name}: mesh {size} mm, model says {echoed}"
        down = mesh.face_normals[:, 2] < -0.999
        on_bed = down & (mesh.triangles[:, :, 2].max(axis=1) < 1e-4)
        footprint = size[0] * size[1] * (0.3 if name == "button_caps" else 1)
        assert mesh.area_faces[on_bed].sum() > 0.25 * footprint, f"{name} has too little area on the bed"


# --------------------------------------------------------------------------- printability


def overhang_regions(mesh):
    """Connected patches of faces pointing down more steeply than 45 degrees, above the bed."""
    n = mesh.face_normals
    lowest = mesh.triangles[:, :, 2].min(axis=1)
    flagged = np.flatnonzero((n[:, 2] < OVERHANG_NZ) & (lowest > 0.2))
    flagged_set = set(flagged.tolist())
    parent = {int(i): int(i) for i in flagged}

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in mesh.face_adjacency:
        if int(a) in flagged_set and int(b) in flagged_set:
            parent[find(int(a))] = find(int(b))
    groups = {}
    for i in flagged_set:
        groups.setdefault(find(i), []).append(i)
    regions = []
    for faces in groups.values():
        pts = mesh.triangles[faces].reshape(-1, 3)
        extent = pts.max(axis=0) - pts.min(axis=0)
        regions.append({"span": float(max(extent[0], extent[1])), "area": float(mesh.area_faces[faces].sum()),
                        "z": float(pts[:, 2].min()), "at": pts.mean(axis=0).round(1).tolist()})
    return regions


def test_no_overhang_needs_support(P, parts, meshes):
    """In print orientation, every face flatter than 45 degrees that faces down and is not on the bed
    must belong to a patch no longer than BRIDGE_MAX in X and Y: a bridge over a hole or a sunk
    letter. This alone cannot tell a short bridge from a short cantilever, so the patches are also
    matched to the bridges the design has: the top of the USB opening, the roofs of the letters."""
    regions = {}
    for name, mesh in meshes.items():
        regions[name] = overhang_regions(mesh)
        long_ones = [r for r in regions[name] if r["span"] > BRIDGE_MAX]
        assert not long_ones, f"{name}: overhangs that need support: {long_ones}"
        total = sum(r["area"] for r in regions[name])
        assert total < 0.02 * mesh.area, f"{name}: {total:.0f} mm2 of bridges is too much"
    ux, uy, uz, uw, uh = parts["base"].one("usb_opening")
    assert len(regions["base"]) == 1, regions["base"]
    usb = regions["base"][0]
    assert abs(usb["z"] - (uz + uh / 2)) < 0.01 and abs(usb["at"][1] - uy) < 0.1, usb
    assert abs(usb["span"] - (uw - 2 * P["usb_open_chamfer"])) < 0.01, usb
    label_depth = parts["lid"].check("label")[0][4]
    assert regions["lid"] and all(abs(r["z"] - label_depth) < 0.01 for r in regions["lid"]), regions["lid"]
    assert regions["button_caps"] == []


def test_overhang_check_finds_a_ledge():
    ledge = trimesh.creation.box(extents=(20, 20, 2))
    ledge.apply_translation((0, 0, 11))  # a plate floating 10 mm above the bed
    post = trimesh.creation.box(extents=(2, 2, 10))
    post.apply_translation((0, 0, 5))
    mesh = trimesh.util.concatenate([ledge, post])
    assert any(r["span"] > BRIDGE_MAX for r in overhang_regions(mesh))


def test_walls_are_thick_enough(P, parts, meshes):
    for key in ("wall", "floor_t", "lid_t", "rib"):
        assert P[key] >= MIN_WALL, f"{key} = {P[key]} mm"
    base, lid = meshes["base"], meshes["lid"]
    z = 16.0 + J  # above the USB opening and the posts
    for o, d in [((-100, J, z), (1, 0, 0)), ((100, J, z), (-1, 0, 0)), ((J, -100, z), (0, 1, 0)),
                 ((J, 100, z), (0, -1, 0))]:
        t = through_thickness(base, o, d)
        assert t >= MIN_WALL - 1e-6 and abs(t - P["wall"]) < 0.01, f"base wall {t:.2f} mm from {o}"
    floor = z_hits(base, -10 + J, -5 + J)
    assert floor[-2] - floor[-1] >= MIN_WALL and abs(floor[-1]) < 1e-6, f"base floor {floor}"
    plate = z_hits(lid, -24 + J, -10 + J)  # beside the window, nothing under it
    assert len(plate) == 2 and plate[0] - plate[1] >= MIN_WALL, f"lid plate {plate}"
    lip = through_thickness(lid, (-100, 0.3 + J, parts["lid"].one("lip")[3]), (1, 0, 0))
    assert lip >= MIN_WALL - 1e-6, f"lid lip {lip:.2f} mm"
    for label, x, y, _inner, ledge_z in parts["lid"].check("switch_socket"):
        # from the gap between two sockets, at the height of the switch body
        t = through_thickness(lid, (x - P["btn_pitch"] / 2, y + J, ledge_z + 0.5), (1, 0, 0))
        assert t >= MIN_WALL - 1e-6, f"switch socket {label} wall {t:.2f} mm"


def test_fit_clearances_are_fdm_friendly(P):
    assert 0.15 <= P["clr_slide"] <= 0.3, "sliding fit about 0.2 mm"
    assert 0.1 - 1e-9 <= P["clr_press"] <= 0.15, "press fit 0.1 to 0.15 mm"


# --------------------------------------------------------------------------- the Pico


def test_pico_parameters_are_the_datasheet_values(P):
    assert (P["pico_l"], P["pico_w"]) == PICO_SIZE
    assert (P["pico_hole_dx"], P["pico_hole_dy"]) == PICO_HOLE_PATTERN
    assert P["pico_hole_d"] == PICO_HOLE_D


def test_standoffs_line_up_with_the_pico_holes(P, parts, meshes):
    base = parts["base"]
    holes = [(h[0], h[1]) for h in base.check("pico_hole")]
    assert len(holes) == 4
    xs, ys = sorted({round(h[0], 3) for h in holes}), sorted({round(h[1], 3) for h in holes})
    assert len(xs) == 2 and len(ys) == 2, holes
    assert abs((xs[1] - xs[0]) - PICO_HOLE_PATTERN[0]) < 1e-6
    assert abs((ys[1] - ys[0]) - PICO_HOLE_PATTERN[1]) < 1e-6
    bx, by, bz, bl, bw, bt, parts_h = base.one("pico_board")
    assert (bl, bw) == PICO_SIZE and abs(bx - np.mean(xs)) < 1e-6 and abs(by - np.mean(ys)) < 1e-6
    z_top, standoff_d, pilot_d = base.check("pico_hole")[0][2:5]
    assert z_top == bz and pilot_d < PICO_HOLE_D < standoff_d
    check_standoffs(meshes["base"], holes, z_top, pilot_d, standoff_d)


def test_standoff_check_catches_a_shifted_pattern(P, parts, meshes):
    holes = [(h[0] + 1.0, h[1]) for h in parts["base"].check("pico_hole")]
    z_top, standoff_d, pilot_d = parts["base"].check("pico_hole")[0][2:5]
    with pytest.raises(AssertionError):
        check_standoffs(meshes["base"], holes, z_top, pilot_d, standoff_d)


def test_pico_fits_and_its_usb_socket_is_reachable(P, parts, meshes):
    base = meshes["base"]
    bx, by, bz, bl, bw, bt, parts_h = parts["base"].one("pico_board")
    ux, uy, uz, uw, uh = parts["base"].one("usb_opening")
    z_low = P["floor_t"] + 0.5 + J  # under the opening
    walls = {d: ray_hits(base, (bx, by, z_low), d + (0,))[0] for d in [(1, 0), (-1, 0), (0, 1), (0, -1)]}
    socket_front = bl / 2 + P["pico_usb_overhang"]
    gap = walls[(1, 0)] - socket_front
    assert 0.2 <= gap <= 1.5, f"USB socket {gap:.2f} mm from the wall"
    assert walls[(-1, 0)] > bl / 2 + 0.3 and min(walls[(0, 1)], walls[(0, -1)]) > bw / 2 + 0.3, walls
    socket_z = bz + bt + P["usb_z_above_pcb"]
    assert abs(uz - socket_z) < 1e-6 and abs(uy - by) < 1e-6
    # straight out through the opening: the socket's axis and the outline of a plug moulding
    # (10.5 x 7 mm, 1.5 mm corner radius)
    outline = [(0.0, 0.0)]
    for a in range(0, 360, 15):
        c, s_ = math.cos(math.radians(a)), math.sin(math.radians(a))
        outline.append((math.copysign(5.25 - 1.5, c) + 1.45 * c, math.copysign(3.5 - 1.5, s_) + 1.45 * s_))
    for dy, dz in outline:
        hits = ray_hits(base, (bx + socket_front, uy + dy + J, socket_z + dz + J), (1, 0, 0))
        assert hits == [], f"the wall blocks the plug at ({dy:.2f}, {dz:.2f})"
    for dy in (-(uw / 2 + 0.5), uw / 2 + 0.5):
        hits = ray_hits(base, (bx + socket_front, uy + dy + J, socket_z + J), (1, 0, 0))
        assert hits, "USB opening wider than specified"


# --------------------------------------------------------------------------- the OLED


def test_window_covers_the_oled_active_area(P, parts, meshes):
    lid = parts["lid"]
    holes = [(h[0], h[1]) for h in lid.check("oled_hole")]
    z_end = lid.check("oled_hole")[0][2]
    xs, ys = sorted({round(h[0], 3) for h in holes}), sorted({round(h[1], 3) for h in holes})
    assert abs((xs[1] - xs[0]) - P["oled_hole_dx"]) < 1e-6 and abs((ys[1] - ys[0]) - P["oled_hole_dy"]) < 1e-6
    mesh = meshes["lid"]
    for x, y in holes:  # a boss ends where the module's board sits, with a pilot hole in it
        boss = top_z(mesh, x + P["oled_pilot_d"] / 2 + 0.4, y + J)
        assert abs(boss - z_end) < 0.01, f"no OLED boss at {x}, {y}"
        assert top_z(mesh, x + J, y + J) < z_end - 2, f"no pilot hole in the OLED boss at {x}, {y}"
    # where the module sits follows from the bosses; the STL is upside down, so "up" on the module is -y
    mx, my = np.mean(xs), np.mean(ys)
    active = (mx + P["oled_active_dx"], my - P["oled_active_dy"], P["oled_active_w"], P["oled_active_h"])
    glass = (mx, my - P["oled_glass_dy"], P["oled_glass_w"], P["oled_glass_h"])
    wx, wy, ww, wh = lid.one("window")
    x0, x1, y0, y1 = check_window(mesh, (wx, wy), active, glass)
    assert abs((x1 - x0) - ww) < 0.05 and abs((y1 - y0) - wh) < 0.05, "window size differs from the model's"


def test_window_check_catches_a_misplaced_active_area(P, parts, meshes):
    wx, wy, ww, wh = parts["lid"].one("window")
    glass = (wx, wy, P["oled_glass_w"], P["oled_glass_h"])
    with pytest.raises(AssertionError):
        check_window(meshes["lid"], (wx, wy), (wx, wy + 2.0, P["oled_active_w"], P["oled_active_h"]), glass)
    with pytest.raises(AssertionError):
        check_window(meshes["lid"], (wx, wy), (wx, wy, P["oled_active_w"] + 3, P["oled_active_h"]), glass)


def test_oled_module_parameters_are_plausible(P):
    # the bosses must miss the glass and the glass must not touch the lid
    assert P["oled_standoff_h"] >= P["oled_glass_t"] + 0.2
    assert P["oled_hole_dx"] < P["oled_pcb_w"] and P["oled_hole_dy"] < P["oled_pcb_h"]
    assert P["oled_active_w"] < P["oled_glass_w"] and P["oled_active_h"] < P["oled_glass_h"]


# --------------------------------------------------------------------------- buttons


def test_button_holes_match_the_parameters(P, parts, meshes):
    lid, mesh = parts["lid"], meshes["lid"]
    rows = lid.check("button_hole")
    assert [r[0] for r in rows] == P["btn_labels"] == ["A", "B", "C"]
    for i, (label, x, y, d, flat) in enumerate(rows):
        # position: pitch along X, row at btn_y (the STL is upside down: y is mirrored)
        assert abs(x - (i - 1) * P["btn_pitch"]) < 1e-6 and abs(y + P["btn_y"]) < 1e-6, label
        assert abs(d - (P["cap_d"] + 2 * P["clr_slide"])) < 1e-6, label

        def open_(px, py):
            return not solid_at(mesh, px, py)

        r_px = edge_distance(lambda px, py: not open_(px, py), (x, y + J), (1, 0), 8)
        r_mx = edge_distance(lambda px, py: not open_(px, py), (x, y + J), (-1, 0), 8)
        r_round = edge_distance(lambda px, py: not open_(px, py), (x + J, y), (0, 1), 8)
        r_flat = edge_distance(lambda px, py: not open_(px, py), (x + J, y), (0, -1), 8)
        for r in (r_px, r_mx, r_round):
            assert abs(r - d / 2) < 0.03, f"button {label} hole radius {r:.3f}, expected {d / 2}"
        assert abs(r_flat - (d / 2 - flat)) < 0.03, f"button {label}: flat at {r_flat:.3f}"


def test_caps_slide_in_their_holes(P, parts, meshes):
    caps, lid = meshes["button_caps"], meshes["lid"]
    hole = parts["lid"].check("button_hole")
    for cap, h in zip(parts["button_caps"].check("cap"), hole, strict=True):
        label, cx, cy, _stem_d, _flat, flange_d, flange_h, _height = cap
        assert label == h[0]
        z = flange_h + 1.5 + J
        stem_r = ray_hits(caps, (cx, cy + J, z), (1, 0, 0))[0]
        hole_r = edge_distance(lambda px, py: solid_at(lid, px, py), (h[1], h[2] + J), (1, 0), 8)
        assert 0.15 <= hole_r - stem_r <= 0.3, f"cap {label}: {hole_r - stem_r:.3f} mm sliding clearance"
        assert flange_d > hole_r * 2 + 1, f"cap {label}: flange would not hold the cap in"


def test_button_stack_heights(P, parts, meshes):
    """Switch on the socket's ledge, cap on its plunger: the cap stands proud, is not pre-pressed,
    and the post in the base backs the switch."""
    lid, base, caps = meshes["lid"], meshes["base"], meshes["button_caps"]
    box_h = parts["lid"].one("lid_frame")[0]
    lid_under = box_h - P["lid_t"]
    for (label, x, y, inner, _), post, cap in zip(parts["lid"].check("switch_socket"),
                                                  parts["base"].check("switch_post"),
                                                  parts["button_caps"].check("cap"), strict=True):
        # socket: ledge at the corners of the switch body, walls a press fit on the body
        ledge = box_h - top_z(lid, x + 5.0 + J, y + 5.0 + J)
        half = ray_hits(lid, (x, y + J, box_h - ledge + 0.7), (1, 0, 0))[0]
        assert abs(2 * half - inner) < 0.02 and 0.1 - 1e-9 <= (inner - P["sw_size"]) / 2 <= 0.15, label
        sw_bottom = ledge - P["sw_body_h"]
        plunger_top = sw_bottom + P["sw_h"]
        # cap, measured on its own mesh
        cap_top = top_z(caps, cap[1] + 3.6, cap[2] + J)
        flange_top = top_z(caps, cap[1] + (cap[3] / 2 + cap[5] / 2) / 2, cap[2] + J)
        assert abs(cap_top - cap[7]) < 0.01 and abs(flange_top - cap[6]) < 0.01, label
        proud = plunger_top + cap_top - box_h
        assert 1.0 <= proud <= 3.0, f"cap {label} stands {proud:.2f} mm proud"
        assert lid_under - (plunger_top + flange_top) >= 0.1, f"cap {label} would hold its switch pressed"
        # post in the base, found by its position in the lid (STL y mirrored)
        assert post[0] == label and abs(post[1] - x) < 1e-6 and abs(post[2] + y) < 1e-6
        post_top = top_z(base, post[1] + J, post[2] + J)
        assert 0.05 <= sw_bottom - post_top <= 0.5, f"post under {label}: gap {sw_bottom - post_top:.2f} mm"


def test_button_order_is_a_b_c_left_to_right(parts, meshes, P):
    """Seen from the front, screen above the buttons: A left, B middle, C right, letters sunk in the lid."""
    lid = meshes["lid"]
    labels = parts["lid"].check("label")
    assert [lab[0] for lab in sorted(labels, key=lambda r: r[1])] == ["A", "B", "C"]
    holes = {h[0]: h for h in parts["lid"].check("button_hole")}
    window_y = parts["lid"].one("window")[1]
    for label, x, y, size, depth in labels:
        # in the STL the lid is upside down: buttons nearer the player than the screen, letters nearer still
        assert holes[label][2] > window_y and y > holes[label][2], label
        assert abs(x - holes[label][1]) < 1e-6
        steps = np.linspace(-size / 2, size / 2, 13)
        grid = [(x + dx, y + dy) for dx in steps for dy in steps]
        sunk = sum(1 for px, py in grid if abs(z_hits(lid, px + J, py + J)[-1] - depth) < 0.01)
        assert 0.1 * len(grid) < sunk < 0.7 * len(grid), f"letter {label}: {sunk} of {len(grid)} probes sunk"
    caps = sorted(parts["button_caps"].check("cap"), key=lambda r: r[1])
    assert [c[0] for c in caps] == ["A", "B", "C"]
    steps = np.linspace(-2.5, 2.5, 11)
    for label, cx, cy, *_, height in caps:  # the letter stands on the cap's top
        grid = [(cx + dx, cy + dy) for dx in steps for dy in steps]
        raised = sum(1 for px, py in grid if top_z(meshes["button_caps"], px + J, py + J) > height + 0.2)
        assert 0.1 * len(grid) < raised < 0.7 * len(grid), f"cap {label}: {raised} of {len(grid)} raised"


def test_button_order_matches_the_firmware_readme():
    """The order the firmware README states, if it states one (e.g. "A (left), B (middle), C (right)")."""
    found = {}
    for readme in [ROOT / "README.md", ROOT / "firmware" / "README.md", ROOT / "boards" / "README.md"]:
        if readme.exists():
            for letter, where in re.findall(r"\b([ABC])\W{0,3}\((left|middle|centre|center|right)\)",
                                            readme.read_text()):
                found.setdefault(letter, "middle" if where in ("centre", "center") else where)
    if not found:
        pytest.skip("no README states the button order yet (expected: A (left), B (middle), C (right))")
    assert found == {"A": "left", "B": "middle", "C": "right"}, found


# --------------------------------------------------------------------------- lid on base


def test_lid_lip_slides_into_the_base(P, parts, meshes):
    base, lid = meshes["base"], meshes["lid"]
    lip_z = parts["lid"].one("lip")[3]
    box_h = parts["lid"].one("lid_frame")[0]
    z_asm = box_h - lip_z
    for d in [(1, 0), (-1, 0), (0, 1), (0, -1)]:
        inner = ray_hits(base, (J, J, z_asm + J), d + (0,))[0]
        # the lid STL is mirrored in y: look the other way along y for the same wall
        dl = (d[0], -d[1], 0)
        lip_out = 100 - ray_hits(lid, (100 * dl[0] + J, 100 * dl[1] + J, lip_z + J), (-dl[0], -dl[1], 0))[0]
        assert 0.15 <= inner - lip_out <= 0.3, f"lip clearance {inner - lip_out:.3f} mm toward {d}"


def test_lid_posts_meet_the_screw_holes(P, parts, meshes):
    base, lid = meshes["base"], meshes["lid"]
    screws = parts["base"].check("lid_screw")
    posts = parts["lid"].check("lid_post")
    assert len(screws) == len(posts) == 4
    assert sorted((round(x, 3), round(y, 3)) for x, y, *_ in screws) == sorted(
        (round(x, 3), round(-y, 3)) for x, y, *_ in posts)
    for x, y, clear_d, _head_d in screws:
        assert z_hits(base, x + J, y + J) == [], f"no screw hole through the floor at {x}, {y}"
        assert z_hits(base, x + clear_d / 2 + 0.3, y + J), "screw hole too large"
        assert P["screw_d"] < clear_d < P["screw_d"] + 0.8
    for x, y, z_end, _post_d, pilot_d, depth in posts:
        assert abs(top_z(lid, x + pilot_d / 2 + 0.5, y + J) - z_end) < 0.01, f"no post end at {x}, {y}"
        hole_bottom = top_z(lid, x + J, y + J)
        assert abs(hole_bottom - (z_end - depth)) < 0.01, f"pilot hole at {x}, {y} not {depth} deep"
        assert pilot_d < P["screw_d"], "the screw would not bite"
        assert depth > P["screw_len"] - P["floor_t"], "the screw would bottom out"


def test_piezo_holder_and_grille(P, parts, meshes):
    lid = meshes["lid"]
    x, y, ring_in, n_holes, hole_d = parts["lid"].one("piezo")
    assert 0.1 - 1e-9 <= (ring_in - P["piezo_d"]) / 2 <= 0.15
    grille_z = []
    for a in range(0, 360, 60):
        px = x + P["grille_ring_r"] * math.cos(math.radians(a)) + J
        py = y - P["grille_ring_r"] * math.sin(math.radians(a)) + J
        grille_z.append(z_hits(lid, px, py))
    assert all(h == [] for h in grille_z) and z_hits(lid, x + J, y + J) == [], "grille holes blocked"
    r = ray_hits(lid, (x, y + J, P["lid_t"] + 1.0), (1, 0, 0))[0]
    assert abs(2 * r - ring_in) < 0.03, f"piezo bore {2 * r:.2f} mm"


# --------------------------------------------------------------------------- everything together


def test_nothing_collides_in_the_assembled_box(parts):
    collisions = enclosure.fit_check()
    if collisions is not None:
        mesh = trimesh.load(str(collisions), force="mesh")
        pytest.fail(f"parts collide, {mesh.volume:.2f} mm3 around {mesh.bounds.round(1).tolist()}")


def test_fit_check_detects_a_collision(tmp_path):
    """The fit check is only worth something if a collision shows: push the switch posts up 0.5 mm."""
    stl = tmp_path / "fit.stl"
    proc = subprocess.run([enclosure.openscad(), "-D", "sw_post_gap=-0.5", "--export-format", "binstl", "-o",
                           str(stl), "fit_check.scad"], cwd=ENCLOSURE, capture_output=True, text=True)
    assert proc.returncode == 0 and "Current top level object is empty." not in proc.stderr + proc.stdout
    mesh = trimesh.load(str(stl), force="mesh")
    assert mesh.volume > 1.0


def test_readme_shows_the_committed_preview():
    png = ENCLOSURE / "preview.png"
    assert png.exists(), "run: python host_tools/enclosure.py --update-readme-preview"
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 100_000
    readme = (ENCLOSURE / "README.md").read_text()
    assert "preview.png" in readme
    for needed in ("M2.5", "M2 ", "no supports", "params.scad"):
        assert needed in readme, f"README.md does not mention {needed!r}"
