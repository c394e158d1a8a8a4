// Nothing of its own: the crate exists so that cargo builds pq-src, whose build script
// leaves libpq.a and its headers in its OUT_DIR (see the Makefile).
extern crate pq_src;
