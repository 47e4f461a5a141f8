# tests/oracle/oracle_lib.cmake — the oracle and the case generator as libraries, included
# by tests/oracle/CMakeLists.txt (g++ tests) and fuzz/CMakeLists.txt (clang fuzz preset,
# where tests/ is not built). pfc_oracle links nothing: it shares no code with compiler/ or
# runtime/ (only the vocabulary headers of include/pfc/ and runtime/routing_program.h).
if(NOT TARGET pfc_oracle)
  set(_oracle_dir ${PROJECT_SOURCE_DIR}/tests/oracle)
  add_library(pfc_oracle STATIC
    ${_oracle_dir}/oracle.cc
    ${_oracle_dir}/oracle_payload.cc
    ${_oracle_dir}/oracle_pattern.cc
    ${_oracle_dir}/oracle_text.cc
  )
  target_include_directories(pfc_oracle PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
  add_library(pfc_oracle_gen STATIC
    ${_oracle_dir}/gen.cc
    ${_oracle_dir}/repro.cc
    ${_oracle_dir}/minimize.cc
  )
  target_include_directories(pfc_oracle_gen PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
endif()
# The engines-vs-oracle runner (links the compiler and the JIT; the oracle itself does not).
if(NOT TARGET pfc_oracle_check)
  add_library(pfc_oracle_check STATIC ${PROJECT_SOURCE_DIR}/tests/oracle/crosscheck.cc)
  target_link_libraries(pfc_oracle_check PUBLIC pfc_oracle pfc_oracle_gen pfc_jit)
  target_include_directories(pfc_oracle_check PUBLIC ${PROJECT_SOURCE_DIR})
endif()
