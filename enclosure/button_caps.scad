// Tidebox button caps: one per switch, letter raised on top, flange underneath so the cap
// cannot fall out of the lid, a flat on the stem so the letter stays upright.
// Prints flange down as it sits in the box, no supports.
include <params.scad>
include <common.scad>

cap_spacing = cap_flange_d + 4;

module cap(label) {
    cylinder(d = cap_flange_d, h = cap_flange_h);
    translate([0, 0, cap_flange_h - eps]) hull() {
        linear_extrude(cap_stem_h - cap_chamfer + eps) d_shape(cap_d, cap_flat);
        linear_extrude(cap_stem_h + eps) offset(delta = -cap_chamfer) d_shape(cap_d, cap_flat);
    }
    translate([0, 0, cap_flange_h + cap_stem_h - eps]) linear_extrude(cap_letter_h + eps, convexity = 6)
        label_text(label, cap_letter_size);
}

// The three caps in a row, A on the left as in the box.
module button_caps() {
    for (i = [0 : 2]) translate([(i - 1) * cap_spacing, 0, 0]) cap(btn_labels[i]);
}

module cap_checks() {
    echo("CHECK", "part", "button_caps", 2 * cap_spacing + cap_flange_d, cap_flange_d,
         cap_flange_h + cap_stem_h + cap_letter_h);
    for (i = [0 : 2])
        echo("CHECK", "cap", btn_labels[i], (i - 1) * cap_spacing, 0, cap_d, cap_flat, cap_flange_d,
             cap_flange_h, cap_flange_h + cap_stem_h);
}

button_caps();
cap_checks();
