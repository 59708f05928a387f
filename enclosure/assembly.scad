// Tidebox assembled, for the preview images (not printed).
//   view = "closed": the box as it sits on the table.
//   view = "open":   lid turned over beside the base, to show what goes where.
include <params.scad>
include <common.scad>
include <vitamins.scad>
use <base.scad>
use <lid.scad>
use <button_caps.scad>

view = "closed";

module caps_in_place() {
    for (i = [0 : 2]) translate([btn_pos(i)[0], btn_pos(i)[1], plunger_top]) cap(btn_labels[i]);
}

module lid_with_parts() {
    color("lightsteelblue") lid_assembled();
    color("orange") caps_in_place();
    oled(0, true);
    for (i = [0 : 2]) translate([btn_pos(i)[0], btn_pos(i)[1], 0]) tact_switch();
    if (piezo) piezo_buzzer();
}

module base_with_parts() {
    color("slategray") base();
    pico();
}

if (view == "open") {
    base_with_parts();
    // hinge the lid open about the base's left top edge, onto the table
    translate([-box_w - 10, 0, box_h]) rotate([0, 180, 0]) lid_with_parts();
} else {
    base_with_parts();
    lid_with_parts();
}
