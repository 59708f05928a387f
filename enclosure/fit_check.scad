// Fit check (not printed): everything that would collide in the assembled box.
// The result must be empty: OpenSCAD then reports an empty top level object.
// Bought parts are shrunk by `s` on every side and the lid is lifted by `s`, so parts
// that only touch by design (a board on its standoffs, the lid on the walls) do not count.
include <params.scad>
include <common.scad>
include <vitamins.scad>
use <base.scad>
use <lid.scad>
use <button_caps.scad>

s = 0.02;

module caps_in_place() {
    for (i = [0 : 2]) translate([btn_pos(i)[0], btn_pos(i)[1], plunger_top]) cap(btn_labels[i]);
}

intersection() { base(); vitamins(s); }
intersection() { base(); usb_plug(s); }
intersection() { base(); translate([0, 0, s]) lid_assembled(); }
intersection() { base(); caps_in_place(); }
intersection() { lid_assembled(); vitamins(s); }
intersection() { lid_assembled(); usb_plug(s); }
intersection() { lid_assembled(); caps_in_place(); }
intersection() { caps_in_place(); vitamins(s); }
