// Shapes shared by the parts. Include after params.scad.

// Rectangle with rounded corners, centred on the origin.
module rrect(w, d, r) {
    rr = max(r, 0.01);
    hull() for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (w / 2 - rr), sy * (d / 2 - rr)]) circle(r = rr);
}

// Rounded block from z = 0 to h with a 45 degree chamfer c on its bottom edge.
module chamfered_block(w, d, r, h, c) {
    hull() {
        linear_extrude(c) rrect(w - 2 * c, d - 2 * c, r - c);
        translate([0, 0, c]) linear_extrude(h - c) rrect(w, d, r);
    }
}

// Circle with a flat on its +Y side, the flat `cut` in from the circle.
module d_shape(d, cut) {
    intersection() {
        circle(d = d);
        translate([-d, -d]) square([2 * d, 1.5 * d - cut]);
    }
}

// Centred text for labels.
module label_text(s, size) {
    text(s, size = size, font = font, halign = "center", valign = "center");
}
