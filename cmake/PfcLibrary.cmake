# cmake/PfcLibrary.cmake — what the two installed libraries (libpfc, libpfc_etw) share:
# the core's objects and dependencies (for the static archives) and the properties of the
# shared libraries (versioned SONAME, hidden symbols, an export map).

# The objects of the core every installed library contains (base → grammar, runtime →
# compiler); libpfc adds the JIT (compiler/jit/), libpfc_etw adds trace/ and etw/ and loads
# the JIT as a plugin instead (etw/jit_loader.h, docs/etw.md "Engine").
set(PFC_INTERP_OBJECTS
  $<TARGET_OBJECTS:pfc_base> $<TARGET_OBJECTS:pfc_grammar> $<TARGET_OBJECTS:pfc_runtime>
  $<TARGET_OBJECTS:pfc_compiler>)
set(PFC_CORE_OBJECTS ${PFC_INTERP_OBJECTS} $<TARGET_OBJECTS:pfc_jit>)
# What users of the static archives link besides them (pfcConfig.cmake finds the same):
# PFC_INTERP_DEPS for libpfc_etw.a, PFC_CORE_DEPS (with LLVM) for libpfc.a.
# (re2 by name: the compiler's `regex` predicates, Debian libre2-dev. Hyperscan, the
# multi-pattern string match, is loaded with dlopen when first needed: compiler/hs_loader.h.)
set(PFC_INTERP_DEPS Threads::Threads pugixml::pugixml ZLIB::ZLIB re2 ${CMAKE_DL_LIBS})
set(PFC_CORE_DEPS ${PFC_INTERP_DEPS})
if(PFC_ENABLE_JIT)
  list(APPEND PFC_CORE_DEPS LLVM)
endif()
# The same for pkg-config (Libs.private of pfc-etw.pc and pfc.pc).
set(PFC_INTERP_PC_LIBS "-lpugixml -lre2 -lz -pthread")
set(PFC_CORE_PC_LIBS "-lsimdjson ${PFC_INTERP_PC_LIBS}")  # libpfc's events library (io/)
if(PFC_ENABLE_JIT)
  string(PREPEND PFC_CORE_PC_LIBS "-L${LLVM_LIBRARY_DIR} -lLLVM-${LLVM_VERSION_MAJOR} ")
endif()

# The shared libraries link with lld when there is one (Debian lld-19): GNU ld keeps the
# std:: template instantiations an export map makes local in .dynsym (as LOCAL entries,
# which nm -D lists); lld leaves them out.
find_program(PFC_LLD NAMES ld.lld-19 ld.lld HINTS /usr/lib/llvm-19/bin)
if(PFC_LLD)
  get_filename_component(PFC_LLD_REAL ${PFC_LLD} REALPATH)
  get_filename_component(PFC_LLD_DIR ${PFC_LLD_REAL} DIRECTORY)
endif()

# pfc_export_only(TARGET EXPORT_MAP) — a shared library or module exporting only what
# EXPORT_MAP lists (hidden symbols, a version script), linked with lld when there is one,
# with no undefined symbols left for its users to supply.
function(pfc_export_only target export_map)
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${export_map})
  target_link_options(${target} PRIVATE -Wl,--version-script=${export_map})
  if(PFC_LLD_DIR AND EXISTS ${PFC_LLD_DIR}/ld.lld)
    target_link_options(${target} PRIVATE -fuse-ld=lld -B${PFC_LLD_DIR}/)
  endif()
  if(NOT PFC_SANITIZE)  # sanitizer runtimes are linked into the executable, not the .so
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
endfunction()

# pfc_library_properties(TARGET OUTPUT_NAME EXPORT_MAP) — a shared library named
# libOUTPUT_NAME.so.MAJOR (SONAME) exporting only what EXPORT_MAP lists (pfc_export_only).
function(pfc_library_properties target output_name export_map)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${output_name}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR})
  pfc_export_only(${target} ${export_map})
endfunction()
