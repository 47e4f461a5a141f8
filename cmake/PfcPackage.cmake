# cmake/PfcPackage.cmake — Debian packages with CPack (docs/embedding.md "Debian packages"):
#   cmake --build build/ci --target package   (or: cd build/ci && cpack -G DEB)
# gives pfc_<version>_<arch>.deb (component runtime: the command, the shared libraries, the
# man page, the docs) and libpfc-dev_<version>_<arch>.deb (component dev: headers, archives,
# CMake and pkg-config files). Shared-library dependencies come from dpkg-shlibdeps
# (Debian package dpkg-dev), which finds the LLVM 19, pugixml, zlib and libstdc++ packages.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pfc)
set(CPACK_PACKAGE_VENDOR "pfc")
set(CPACK_PACKAGE_CONTACT "pfc maintainers <pfc@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "payload filter expression compiler with an ETW-compatible tracing library")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME pfc)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# Hyperscan is loaded with dlopen (compiler/hs_loader.h), which dpkg-shlibdeps does not see;
# without it string patterns are tested one by one.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS libhyperscan5)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libpfc-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# The dev package needs the libraries (pfc) and, for the static archives and the CMake
# package, the dependencies' development files (llvm-19-dev for libpfc.a; libpfc_etw.a
# needs no LLVM).
set(_pfc_dev_depends "pfc (= ${PROJECT_VERSION}), libpugixml-dev, libre2-dev, libhyperscan-dev, libsimdjson-dev, zlib1g-dev")
if(PFC_ENABLE_JIT)
  string(APPEND _pfc_dev_depends ", llvm-19-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${_pfc_dev_depends}")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "The pfc command and the shared libraries libpfc (C++ embedding API) and libpfc_etw (ETW-compatible C API), with libpfc_etw's JIT plugin.")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "Headers, static libraries, CMake package (find_package(pfc)) and pkg-config files for pfc.")
include(CPack)
