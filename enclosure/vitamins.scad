// The bought parts, as they sit in the assembled box (assembly frame of params.scad).
// Used for the preview and for the fit check. `s` shrinks every solid by that much on
// each side, so that parts which only touch (a board resting on its standoffs) do not
// count as a collision in the fit check.

module pico(s = 0) {
    x0 = pico_x - pico_l / 2;
    color("darkgreen") translate([0, 0, pico_z + s]) linear_extrude(pico_t - 2 * s, convexity = 4) difference() {
        translate([x0 + s, pico_y - pico_w / 2 + s]) square([pico_l - 2 * s, pico_w - 2 * s]);
        for (h = pico_holes()) translate(h) circle(d = pico_hole_d + 2 * s);
    }
    top = pico_z + pico_t;
    // micro-USB socket on the +X edge, sticking out past the board
    color("silver") translate([x0 + pico_l + pico_usb_overhang - 5.6 + s, pico_y - 4 + s, top + s])
        cube([5.6 - 2 * s, 8 - 2 * s, 2 * usb_z_above_pcb - 2 * s]);
    // RP2040, wireless module shield, BOOTSEL button
    color("black") translate([pico_x - 7 + s, pico_y - 3.5 + s, top + s]) cube([7 - 2 * s, 7 - 2 * s, 1 - 2 * s]);
    color("silver") translate([x0 + 3 + s, pico_y - 6 + s, top + s]) cube([12 - 2 * s, 12 - 2 * s, 1.6 - 2 * s]);
    color("white") translate([pico_x + 12 + s, pico_y + 4 + s, top + s])
        cube([4 - 2 * s, 3 - 2 * s, pico_parts_h - 2 * s]);
}

// Micro-USB plug pushed home: metal shell in the socket, moulding (10.5 x 7 mm, rounded) in the wall.
module usb_plug(s = 0) {
    x_socket = pico_x + pico_l / 2 + pico_usb_overhang;
    color("silver") translate([x_socket - 5 + s, pico_y - 3.45 + s, usb_z - 0.9 + s])
        cube([6.5 - 2 * s, 6.9 - 2 * s, 1.8 - 2 * s]);
    color("dimgray") translate([x_socket + 1.5 + s, pico_y, usb_z]) rotate([0, 90, 0])
        linear_extrude(15 - 2 * s) rotate(90) rrect(10.5 - 2 * s, 7 - 2 * s, 1.5);
}

module oled(s = 0, text_on = false) {
    translate([oled_x, oled_y, 0]) {
        // board, glass on its front face
        color("royalblue") translate([0, 0, oled_front_z - oled_pcb_t + s])
            linear_extrude(oled_pcb_t - 2 * s, convexity = 4) difference() {
                square([oled_pcb_w - 2 * s, oled_pcb_h - 2 * s], center = true);
                for (sx = [-1, 1], sy = [-1, 1])
                    translate([sx * oled_hole_dx / 2, sy * oled_hole_dy / 2]) circle(d = oled_hole_d + 2 * s);
            }
        color([0.08, 0.08, 0.1]) translate([0, oled_glass_dy, oled_front_z + s])
            linear_extrude(oled_glass_t - 2 * s)
                square([oled_glass_w - 2 * s, oled_glass_h - 2 * s], center = true);
        // solder joints of the four header pins on the front, pins on the back edge
        color("silver") for (i = [0 : 3])
            translate([(i - 1.5) * 2.54, oled_pcb_h / 2 - 1.5, oled_front_z + s])
                cylinder(d = 1.4 - 2 * s, h = 1.5 - 2 * s);
        if (text_on) color("white") translate([oled_active_dx, oled_active_dy, oled_front_z + oled_glass_t])
            linear_extrude(0.05, convexity = 6) text("TIDEBOX", size = 3.2, font = font, halign = "center", valign = "center");
    }
}

module tact_switch(s = 0) {
    color("dimgray") translate([0, 0, sw_bottom + s]) linear_extrude(sw_body_h - 2 * s)
        square(sw_size - 2 * s, center = true);
    color("black") translate([0, 0, sw_top - eps]) cylinder(d = 6.5 - 2 * s, h = sw_h - sw_body_h + eps - s);
    // legs leave the body at its bottom edge and bend down
    color("silver") for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * 6.25 - 0.35 + s, sy * 2.5 - 0.15 + s, sw_bottom - 3.5 + s])
            cube([0.7 - 2 * s, 0.3 - 2 * s, 3.6 - 2 * s]);
}

module piezo_buzzer(s = 0) {
    color([0.1, 0.1, 0.1]) translate([piezo_x, piezo_y, lid_under - piezo_h + s])
        cylinder(d = piezo_d - 2 * s, h = piezo_h - 2 * s);
}

module vitamins(s = 0, text_on = false) {
    pico(s);
    oled(s, text_on);
    for (i = [0 : 2]) translate([btn_pos(i)[0], btn_pos(i)[1], 0]) tact_switch(s);
    if (piezo) piezo_buzzer(s);
}
