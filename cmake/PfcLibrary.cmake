# cmake/PfcLibrary.cmake — what the two installed libraries (libpfc, libpfc_etw) share:
# the core's objects and dependencies (for the static archives) and the properties of the
# shared libraries (versioned SONAME, hidden symbols, an export map).

# The objects of the core every installed library contains (base → grammar, runtime →
# compiler → jit); libpfc_etw adds trace/ and etw/.
set(PFC_CORE_OBJECTS
  $<TARGET_OBJECTS:pfc_base> $<TARGET_OBJECTS:pfc_grammar> $<TARGET_OBJECTS:pfc_runtime>
  $<TARGET_OBJECTS:pfc_compiler> $<TARGET_OBJECTS:pfc_jit>)
# What users of the static archives link besides them (pfcConfig.cmake finds the same).
# (re2 by name: the compiler's `regex` predicates; Debian libre2-dev.)
set(PFC_CORE_DEPS Threads::Threads pugixml::pugixml ZLIB::ZLIB re2)
if(PFC_ENABLE_JIT)
  list(APPEND PFC_CORE_DEPS LLVM)
endif()
# The same for pkg-config (Libs.private of pfc.pc and pfc-etw.pc).
set(PFC_CORE_PC_LIBS "-lpugixml -lre2 -lz -pthread")
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

# pfc_library_properties(TARGET OUTPUT_NAME EXPORT_MAP) — a shared library named
# libOUTPUT_NAME.so.MAJOR (SONAME) exporting only what EXPORT_MAP lists, with no undefined
# symbols left for its users to supply.
function(pfc_library_properties target output_name export_map)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${output_name}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}
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
