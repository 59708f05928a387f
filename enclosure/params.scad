// Tidebox enclosure: every dimension in one place (millimetres).
//
// Assembly frame used below: origin at the centre of the footprint, on the table;
// +X to the player's right, +Y away from the player (the screen sits "above" the
// buttons, further from the player), +Z up. The base prints as it stands; the lid
// prints upside down (top face on the bed); the caps print flange down.
//
// Values marked MEASURE differ between sellers: see README.md, "Measure your parts".

/* [Printing and fit] */
wall = 2.0;             // base side walls (>= 1.6)
floor_t = 2.0;          // base floor
lid_t = 2.0;            // lid top plate
rib = 1.6;              // thinnest wall anywhere: lid lip, switch sockets, piezo holder
clr_slide = 0.2;        // sliding fit, per side (lid lip in base, caps in their holes)
clr_press = 0.1;        // press fit, per side (switch bodies, piezo)
edge_chamfer = 0.8;     // 45 degree chamfer on the bottom edge of the base and top edge of the lid
eps = 0.01;

/* [Box] */
box_w = 70;             // outer width (X)
box_d = 68;             // outer depth (Y)
box_h = 24;             // outer height, base + lid
corner_r = 4;           // outer radius of the vertical edges
lip_h = 3;              // locating lip under the lid, inside the base walls

/* [Raspberry Pi Pico W / Pico 2 W] */
pico_l = 51;            // board length (X); micro-USB on the +X short edge
pico_w = 21;            // board width (Y)
pico_t = 1.0;           // board thickness
pico_hole_dx = 47.0;    // hole pattern along the board
pico_hole_dy = 11.4;    // hole pattern across the board
pico_hole_d = 2.1;
pico_parts_h = 3.0;     // tallest part on top of the board (the USB socket)
pico_standoff_h = 4.0;  // floor to underside of the board
pico_standoff_d = 4.6;
pico_pilot_d = 1.7;     // for M2 screws cutting their own thread
pico_usb_overhang = 1.3; // the micro-USB socket sticks out past the board edge
pico_usb_gap = 0.5;     // front of the USB socket to the inside of the wall
pico_y = 12.5;          // board centre (Y)
usb_z_above_pcb = 1.4;  // centre of the micro-USB socket above the top of the board
usb_open_w = 12.5;      // opening for the plug's moulding (about 10.5 x 7 mm, rounded corners)
usb_open_h = 8.5;
usb_open_chamfer = 1.5; // 45 degree corners keep the bridge over the opening short

/* [0.96 inch SSD1306 I2C module] */
oled_pcb_w = 27.3;      // MEASURE: board width
oled_pcb_h = 27.8;      // MEASURE: board height (header pins on the top edge)
oled_pcb_t = 1.2;       // MEASURE: board thickness
oled_hole_dx = 23.5;    // MEASURE: mounting hole spacing, across
oled_hole_dy = 23.8;    // MEASURE: mounting hole spacing, up-down
oled_hole_d = 2.0;
oled_glass_w = 26.7;    // glass panel
oled_glass_h = 19.3;
oled_glass_t = 1.42;    // MEASURE: glass thickness above the board
oled_glass_dy = -0.25;  // MEASURE: glass centre above the hole-pattern centre (negative: below)
oled_active_w = 21.74;  // lit pixel area (128 x 64 at 0.17 mm)
oled_active_h = 10.86;
oled_active_dx = 0;     // MEASURE: active-area centre right of the hole-pattern centre
oled_active_dy = 1.5;   // MEASURE: active-area centre above the hole-pattern centre (toward the pins)
oled_window_margin = 1.0; // window edge beyond the active area, each side
oled_window_chamfer = 1.0; // 45 degree bevel on the outside of the window
oled_standoff_h = 2.0;  // lid underside to the front of the module board (>= glass, clears solder joints)
oled_boss_d = 4.4;
oled_boss_glass_clr = 0.3; // bosses stop this far from the glass
oled_pilot_d = 1.6;     // for M2 x 4 screws cutting their own thread
oled_x = 0;             // hole-pattern centre in the lid
oled_y = 10;

/* [Buttons: 12 x 12 mm tactile switches under printed caps] */
sw_size = 12.0;         // MEASURE: switch body, square
sw_body_h = 3.6;        // MEASURE: body height, without the plunger
sw_h = 7.3;             // MEASURE: total height, bottom of the body to the top of the plunger
btn_pitch = 19;         // centre to centre
btn_y = -17;            // row centre (Y)
btn_labels = ["A", "B", "C"]; // left to right, as the firmware README names them
cap_d = 9.0;            // cap stem, goes through the lid
cap_flat = 0.5;         // flat on the stem's +Y side keeps the letter upright
cap_flange_d = 11.4;    // stops the cap falling out
cap_flange_h = 1.2;
cap_proud = 2.0;        // cap top above the lid when released
cap_gap = 0.2;          // cap flange below the lid underside when released (no pre-travel)
cap_chamfer = 0.5;
cap_letter_h = 0.5;     // raised letter on the cap
cap_letter_size = 4.5;
sw_grip = 1.5;          // depth of the socket walls around the switch body
sw_post_d = 7;          // post in the base behind each switch (misses the legs)
sw_post_gap = 0.2;      // post top to switch bottom
label_size = 6;         // letters sunk into the lid under each button
label_depth = 0.6;
label_dy = -11;         // label centre relative to the button centre
font = "DejaVu Sans:style=Bold";

/* [Piezo buzzer, optional] */
piezo = true;           // false: no grille, no holder
piezo_d = 12.0;         // MEASURE: 12 mm passive buzzer (12 x 8.5 mm or 12 x 9.5 mm)
piezo_h = 9.5;
piezo_grip = 4;         // depth of the holder ring
piezo_x = 22.5;
piezo_y = 10;
grille_hole_d = 1.6;
grille_ring_r = 3.2;    // six holes on this circle, one in the middle

/* [Lid screws: M2.5 countersunk, from below through the floor] */
screw_d = 2.5;
screw_clear_d = 2.9;    // through the floor
screw_head_d = 5.0;     // countersink (90 degrees) for a 4.7 mm head
screw_pilot_d = 2.2;    // in the lid posts, screw cuts its own thread
screw_len = 10;
screw_pilot_depth = 10;
lid_post_d = 6;
screw_inset = 5.5;      // post centre from the outer faces

/* [Rendering] */
$fa = 5;
$fs = 0.3;

// ---------------------------------------------------------------- derived values
inner_w = box_w - 2 * wall;
inner_d = box_d - 2 * wall;
inner_r = corner_r - wall;
base_h = box_h - lid_t;               // top of the base walls = underside of the lid plate
lid_under = base_h;

pico_x = inner_w / 2 - pico_usb_gap - pico_usb_overhang - pico_l / 2;
pico_z = floor_t + pico_standoff_h;   // underside of the board
function pico_holes() = [for (sx = [-1, 1], sy = [-1, 1])
    [pico_x + sx * pico_hole_dx / 2, pico_y + sy * pico_hole_dy / 2]];
usb_z = pico_z + pico_t + usb_z_above_pcb;

oled_front_z = lid_under - oled_standoff_h;  // front face of the module board
function oled_holes() = [for (sx = [-1, 1], sy = [-1, 1])
    [oled_x + sx * oled_hole_dx / 2, oled_y + sy * oled_hole_dy / 2]];
oled_active_c = [oled_x + oled_active_dx, oled_y + oled_active_dy];
oled_window = [oled_active_w + 2 * oled_window_margin, oled_active_h + 2 * oled_window_margin];

function btn_pos(i) = [(i - 1) * btn_pitch, btn_y];
btn_hole_d = cap_d + 2 * clr_slide;
btn_hole_flat = cap_flat - clr_slide;        // the hole's flat is offset like its circle
plunger_top = lid_under - cap_flange_h - cap_gap;
sw_bottom = plunger_top - sw_h;
sw_top = sw_bottom + sw_body_h;              // rests against the socket's ledge
cap_stem_h = box_h + cap_proud - plunger_top - cap_flange_h;
sw_socket_in = sw_size + 2 * clr_press;
sw_socket_out = sw_socket_in + 2 * rib;
sw_socket_bottom = sw_top - sw_grip;
flange_room_d = cap_flange_d + 2 * clr_slide;

piezo_ring_in = piezo_d + 2 * clr_press;

function lid_screws() = [for (sx = [-1, 1], sy = [-1, 1])
    [sx * (box_w / 2 - screw_inset), sy * (box_d / 2 - screw_inset)]];

// The lid's STL is the assembled lid turned over about X: (x, y, z) -> (x, -y, box_h - z).
function lid_print(p) = [p[0], -p[1], len(p) > 2 ? box_h - p[2] : 0];

// ---------------------------------------------------------------- sanity checks
assert(wall >= 1.6 && floor_t >= 1.6 && lid_t >= 1.6 && rib >= 1.6, "walls must be at least 1.6 mm");
assert(oled_standoff_h >= oled_glass_t + 0.2, "the glass would touch the lid");
assert(oled_window[0] < oled_glass_w && oled_window[1] < oled_glass_h, "window larger than the glass");
assert(sw_socket_bottom > sw_bottom, "socket deeper than the switch body");
assert(flange_room_d < sw_socket_in, "the cap flange needs a ledge to stop the switch");
assert(pico_z + pico_t + pico_parts_h < oled_front_z - oled_pcb_t - 3, "no room for wires above the Pico");
assert(!piezo || pico_z + pico_t + pico_parts_h < lid_under - piezo_h - 1, "the piezo hits the Pico");
assert(max(box_w, box_d, box_h) <= 180, "part larger than a 180 mm bed");
