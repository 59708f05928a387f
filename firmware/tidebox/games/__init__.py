# The games the box can host. Each is a module of pure rules (no I/O, no clock, no hardware).
