// Tidebox lid: top plate with the OLED window, the three button holes and their letters,
// the piezo grille; underneath, the OLED bosses, switch sockets, piezo holder, a locating
// lip and four posts for the screws that come up through the base.
// Modelled as assembled, exported upside down (top face on the bed), no supports.
include <params.scad>
include <common.scad>

module lid_assembled() {
    difference() {
        union() {
            // top plate, 45 degree chamfer on its top edge
            translate([0, 0, box_h]) mirror([0, 0, 1])
                chamfered_block(box_w, box_d, corner_r, lid_t, edge_chamfer);
            // locating lip inside the base walls
            translate([0, 0, lid_under - lip_h]) linear_extrude(lip_h + eps, convexity = 4) difference() {
                rrect(inner_w - 2 * clr_slide, inner_d - 2 * clr_slide, inner_r - clr_slide);
                rrect(inner_w - 2 * clr_slide - 2 * rib, inner_d - 2 * clr_slide - 2 * rib,
                      inner_r - clr_slide - rib);
            }
            // posts for the lid screws, down to the floor of the base
            for (p = lid_screws()) translate([p[0], p[1], floor_t])
                cylinder(d = lid_post_d, h = lid_under - floor_t + eps);
            // OLED bosses, trimmed so they stay clear of the glass
            for (h = oled_holes()) translate([h[0], h[1], oled_front_z])
                linear_extrude(oled_standoff_h + eps) intersection() {
                    circle(d = oled_boss_d);
                    glass_keepout_inverse(h);
                }
            // switch sockets
            for (i = [0 : 2]) translate([btn_pos(i)[0], btn_pos(i)[1], sw_socket_bottom])
                linear_extrude(lid_under - sw_socket_bottom + eps)
                    square(sw_socket_out, center = true);
            // piezo holder ring
            if (piezo) translate([piezo_x, piezo_y, lid_under - piezo_grip])
                cylinder(d = piezo_ring_in + 2 * rib, h = piezo_grip + eps);
        }
        // display window with a bevel on the outside
        translate([oled_active_c[0], oled_active_c[1], 0]) {
            translate([0, 0, lid_under - 1]) linear_extrude(lid_t + 2)
                square(oled_window, center = true);
            hull() {
                translate([0, 0, box_h - oled_window_chamfer]) linear_extrude(eps)
                    square(oled_window, center = true);
                translate([0, 0, box_h]) linear_extrude(1)
                    square([oled_window[0] + 2 * oled_window_chamfer + 2, oled_window[1] + 2 * oled_window_chamfer + 2],
                           center = true);
            }
        }
        // pilot holes in the OLED bosses
        for (h = oled_holes()) translate([h[0], h[1], oled_front_z - 1])
            cylinder(d = oled_pilot_d, h = oled_standoff_h + lid_t - 0.8 + 1);
        // buttons: hole for the cap, room for the flange, socket for the switch body
        for (i = [0 : 2]) translate([btn_pos(i)[0], btn_pos(i)[1], 0]) {
            translate([0, 0, lid_under - 1]) linear_extrude(lid_t + 2)
                d_shape(btn_hole_d, btn_hole_flat);
            translate([0, 0, sw_top]) cylinder(d = flange_room_d, h = lid_under - sw_top + eps);
            translate([0, 0, sw_socket_bottom - 1]) linear_extrude(sw_top - sw_socket_bottom + 1)
                square(sw_socket_in, center = true);
            // letter sunk into the top face
            translate([0, label_dy, box_h - label_depth]) linear_extrude(label_depth + 1, convexity = 6)
                label_text(btn_labels[i], label_size);
        }
        // piezo: holder bore and grille
        if (piezo) translate([piezo_x, piezo_y, 0]) {
            translate([0, 0, lid_under - piezo_grip - 1]) cylinder(d = piezo_ring_in, h = piezo_grip + 1);
            for (g = grille_holes()) translate([g[0], g[1], lid_under - 1])
                cylinder(d = grille_hole_d, h = lid_t + 2);
        }
        // pilot holes in the screw posts
        for (p = lid_screws()) translate([p[0], p[1], floor_t - 1])
            cylinder(d = screw_pilot_d, h = screw_pilot_depth + 1);
    }
}

function grille_holes() = concat([[0, 0]], [for (a = [0 : 60 : 300]) grille_ring_r * [cos(a), sin(a)]]);

// Everything except the glass (plus clearance), near one hole, in module coordinates.
module glass_keepout_inverse(h) {
    gy0 = oled_y + oled_glass_dy - oled_glass_h / 2 - oled_boss_glass_clr;
    gy1 = oled_y + oled_glass_dy + oled_glass_h / 2 + oled_boss_glass_clr;
    translate([-h[0], -h[1]]) difference() {
        translate([oled_x, oled_y]) square([2 * box_w, 2 * box_d], center = true);
        translate([oled_x - oled_glass_w / 2 - oled_boss_glass_clr, gy0])
            square([oled_glass_w + 2 * oled_boss_glass_clr, gy1 - gy0]);
    }
}

module lid() {
    translate([0, 0, box_h]) rotate([180, 0, 0]) lid_assembled();
}

module lid_checks() {
    // All positions in the STL's own frame (upside down): see lid_print() in params.scad.
    echo("CHECK", "part", "lid", box_w, box_d, box_h - floor_t);
    echo("CHECK", "walls", lid_t, rib);
    echo("CHECK", "lid_frame", box_h);
    w = lid_print(oled_active_c);
    echo("CHECK", "window", w[0], w[1], oled_window[0], oled_window[1]);
    echo("CHECK", "oled_active", w[0], w[1], oled_active_w, oled_active_h);
    for (h = oled_holes()) {
        p = lid_print([h[0], h[1], oled_front_z]);
        echo("CHECK", "oled_hole", p[0], p[1], p[2], oled_pilot_d);
    }
    for (i = [0 : 2]) {
        p = lid_print(btn_pos(i));
        echo("CHECK", "button_hole", btn_labels[i], p[0], p[1], btn_hole_d, btn_hole_flat);
        echo("CHECK", "label", btn_labels[i], p[0], p[1] - label_dy, label_size, label_depth);
        echo("CHECK", "switch_socket", btn_labels[i], p[0], p[1], sw_socket_in, box_h - sw_top);
    }
    l = lid_print([0, 0, lid_under - lip_h / 2]);
    echo("CHECK", "lip", inner_w - 2 * clr_slide, inner_d - 2 * clr_slide, rib, l[2]);
    for (p = lid_screws()) {
        q = lid_print([p[0], p[1], floor_t]);
        echo("CHECK", "lid_post", q[0], q[1], q[2], lid_post_d, screw_pilot_d, screw_pilot_depth);
    }
    if (piezo) {
        p = lid_print([piezo_x, piezo_y]);
        echo("CHECK", "piezo", p[0], p[1], piezo_ring_in, len(grille_holes()), grille_hole_d);
    }
}

lid();
lid_checks();
