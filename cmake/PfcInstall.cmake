# cmake/PfcInstall.cmake — what `cmake --install` puts where (docs/embedding.md "Installing"):
#   component runtime: bin/pfc, lib/libpfc.so.0*, lib/libpfc_etw.so.0*, lib/libpfc_etw_jit.so
#                      (the JIT plugin libpfc_etw loads from its own directory),
#                      libexec/pfc-trace-compiler (the namespace's compile service), the
#                      man page, docs
#   component dev:     include/pfc (the public headers only), lib/*.so links, lib/*.a,
#                      lib/cmake/pfc (pfcConfig.cmake, version file, targets), lib/pkgconfig
include(CMakePackageConfigHelpers)

# The public headers: the C++ API (filter.h, events.h), the data they use, and the ETW C API.
# include/pfc holds these and nothing else: every internal header lives beside its sources
# (the tables of the public enums in base/, docs/architecture.md §2). tests/install checks
# that each public header compiles alone with -std=c++20 from the installed tree, and that
# include/pfc holds no other header.
set(PFC_PUBLIC_HEADERS diagnostic.h enable.h event.h events.h filter.h guid.h schema.h)
set(PFC_ETW_PUBLIC_HEADERS evntcons.h evntprov.h evntrace.h initguid.h pfc_etw_types.h strsafe.h tdh.h
                           windows.h TraceLoggingProvider.h tlg_pp.h tlg_fields.h
                           pfc_etw_wchar.h pfc_etw_wprintf.h sal.h tchar.h wmistr.h conio.h pfc_etw_ext.h)
list(TRANSFORM PFC_PUBLIC_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/include/pfc/)
list(TRANSFORM PFC_ETW_PUBLIC_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/include/pfc/etw/)
set(PFC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pfc)

if(TARGET pfc)
  install(TARGETS pfc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()
install(TARGETS pfc_lib pfc_etw EXPORT pfcTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
if(TARGET pfc_etw_jit)  # a plugin, not linked by anyone: no namelink, not exported
  install(TARGETS pfc_etw_jit LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
endif()
if(TARGET pfc-trace-compiler)  # started by provider processes (docs/namespace.md)
  install(TARGETS pfc-trace-compiler RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}
          COMPONENT runtime)
endif()
install(TARGETS pfc_lib_static pfc_etw_static EXPORT pfcStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(FILES ${PFC_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pfc COMPONENT dev)
install(FILES ${PFC_ETW_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pfc/etw
        COMPONENT dev)
install(FILES ${PROJECT_SOURCE_DIR}/docs/pfc.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT runtime FILES_MATCHING PATTERN "*.md")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)

install(EXPORT pfcTargets NAMESPACE pfc:: DESTINATION ${PFC_CMAKE_DIR} COMPONENT dev)
install(EXPORT pfcStaticTargets NAMESPACE pfc:: DESTINATION ${PFC_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pfcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pfcConfig.cmake INSTALL_DESTINATION ${PFC_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pfcConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)  # 0.x: a minor release may change the API
install(FILES ${PROJECT_BINARY_DIR}/pfcConfig.cmake ${PROJECT_BINARY_DIR}/pfcConfigVersion.cmake
        DESTINATION ${PFC_CMAKE_DIR} COMPONENT dev)

# pkg-config: pfc.pc (C++ API) and pfc-etw.pc (ETW C API); Libs.private is what a static
# link (pkg-config --static) needs besides the archive.
file(RELATIVE_PATH PFC_PC_UP /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
foreach(pc pfc pfc-etw)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT dev)
endforeach()
