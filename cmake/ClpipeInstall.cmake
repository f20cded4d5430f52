# What `cmake --install` puts under the prefix, and the Debian package `cpack -G DEB`
# makes of it:
#   lib/            libclpipe.a and the layers it links (static: consumers link clpipe
#                   into their program and need only an OpenCL ICD at run time)
#   include/clpipe/ the public API
#   lib/cmake/clpipe/ clpipeConfig.cmake: find_package(clpipe) -> clpipe::clpipe
#   lib/pkgconfig/  clpipe.pc
#   bin/            clpipe-vtest, clpipe-run, clpipe-info, clpipe-tgsi, clpipe-demo
include(CMakePackageConfigHelpers)
set(CLPIPE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/clpipe)

set_target_properties(clpipe_base PROPERTIES EXPORT_NAME base)
set_target_properties(clpipe_compiler PROPERTIES EXPORT_NAME compiler)
set_target_properties(clpipe_runtime PROPERTIES EXPORT_NAME runtime)
install(TARGETS clpipe_base clpipe_compiler clpipe_runtime clpipe EXPORT clpipeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/clpipe DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS clpipe-vtest clpipe-info clpipe-tgsi clpipe-demo
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS tools/clpipe-run/clpipe-run DESTINATION ${CMAKE_INSTALL_BINDIR})

install(EXPORT clpipeTargets NAMESPACE clpipe:: DESTINATION ${CLPIPE_CMAKE_DIR})
configure_package_config_file(cmake/clpipeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/clpipeConfig.cmake INSTALL_DESTINATION ${CLPIPE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/clpipeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/clpipeConfig.cmake
              ${PROJECT_BINARY_DIR}/clpipeConfigVersion.cmake
  DESTINATION ${CLPIPE_CMAKE_DIR})

# clpipe.pc finds its prefix from its own folder, so the files work wherever
# `cmake --install --prefix` puts them.
file(RELATIVE_PATH CLPIPE_PC_TO_PREFIX
  /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(cmake/clpipe.pc.in ${PROJECT_BINARY_DIR}/clpipe.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/clpipe.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# cpack -G DEB: one package with the tools, the library and its development files, and
# the machine's program cache warmed at install.
# Depends: an OpenCL driver (PoCL on a machine without a GPU); dpkg-shlibdeps adds the
# ICD loader, libstdc++, zlib.
# Recommends: Mesa's DRI drivers, whose virpipe driver clpipe-run starts programs with,
# and util-linux's unshare (clpipe-run's private mount namespace); the library and
# clpipe-vtest work without them. Suggests: ocl-icd-opencl-dev, which a program built
# against the library (find_package, pkg-config) links with (libOpenCL.so, OpenCL.pc).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME clpipe)
set(CPACK_PACKAGE_VENDOR "clpipe")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Gallium3D-style OpenGL driver on an OpenCL compute device, with a vtest server")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "clpipe developers <clpipe@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri, util-linux")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "ocl-icd-opencl-dev, piglit")
# Maintainer scripts: postinst warms the machine's program cache (CLPIPE_SYSTEM_CACHE_DIR)
# with the packaged clpipe-vtest, postrm removes it (cmake/deb/postinst.in says why).
set(CLPIPE_DEB_VTEST ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/clpipe-vtest)
foreach(script postinst postrm)
  configure_file(cmake/deb/${script}.in ${PROJECT_BINARY_DIR}/deb/${script} @ONLY)
  list(APPEND CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/deb/${script})
endforeach()
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
include(CPack)
