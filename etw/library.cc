// etw/library.cc — libpfc_etw.so: the ETW-compatible C API lives in pfc_etw_core, which
// is linked whole into this library; exports.map selects the exported C functions.
