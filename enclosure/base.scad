// Tidebox base: tub with the Pico on standoffs, the USB opening in the right wall,
// posts that back the three switches, and countersunk holes for the lid screws.
// Prints as it stands, floor on the bed, no supports.
include <params.scad>
include <common.scad>

module base() {
    difference() {
        union() {
            difference() {
                chamfered_block(box_w, box_d, corner_r, base_h, edge_chamfer);
                translate([0, 0, floor_t]) linear_extrude(base_h) rrect(inner_w, inner_d, inner_r);
            }
            // Pico standoffs
            for (p = pico_holes()) translate([p[0], p[1], floor_t - eps])
                cylinder(d = pico_standoff_d, h = pico_standoff_h + eps);
            // posts behind the switches
            for (i = [0 : 2]) translate([btn_pos(i)[0], btn_pos(i)[1], floor_t - eps])
                cylinder(d = sw_post_d, h = sw_bottom - sw_post_gap - floor_t + eps);
        }
        // pilot holes for the Pico's M2 screws, stopping 0.8 mm above the bed
        for (p = pico_holes()) translate([p[0], p[1], 0.8])
            cylinder(d = pico_pilot_d, h = pico_z);
        // micro-USB opening in the +X wall, octagonal so its top bridge stays short
        translate([inner_w / 2 - 1, pico_y, usb_z]) rotate([90, 0, 90])
            linear_extrude(wall + 2) usb_opening_2d();
        // lid screws: clearance hole and 90 degree countersink from below
        for (p = lid_screws()) translate([p[0], p[1], 0]) {
            translate([0, 0, -1]) cylinder(d = screw_clear_d, h = floor_t + 2);
            translate([0, 0, -eps]) cylinder(d1 = screw_head_d, d2 = 0, h = screw_head_d / 2);
        }
    }
}

module usb_opening_2d() {
    c = usb_open_chamfer;
    w = usb_open_w / 2;
    h = usb_open_h / 2;
    polygon([[-w + c, -h], [w - c, -h], [w, -h + c], [w, h - c], [w - c, h], [-w + c, h], [-w, h - c],
             [-w, -h + c]]);
}

module base_checks() {
    echo("CHECK", "part", "base", box_w, box_d, base_h);
    echo("CHECK", "walls", wall, floor_t);
    echo("CHECK", "inner", inner_w, inner_d);
    echo("CHECK", "pico_board", pico_x, pico_y, pico_z, pico_l, pico_w, pico_t, pico_parts_h);
    for (p = pico_holes())
        echo("CHECK", "pico_hole", p[0], p[1], pico_z, pico_standoff_d, pico_pilot_d);
    echo("CHECK", "usb_opening", box_w / 2, pico_y, usb_z, usb_open_w, usb_open_h);
    for (p = lid_screws()) echo("CHECK", "lid_screw", p[0], p[1], screw_clear_d, screw_head_d);
    for (i = [0 : 2])
        echo("CHECK", "switch_post", btn_labels[i], btn_pos(i)[0], btn_pos(i)[1], sw_bottom - sw_post_gap,
             sw_post_d);
}

base();
base_checks();
