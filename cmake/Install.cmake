# `cmake --install`: the sonnx executable, libsonnx.so (SONAME libsonnx.so.0), the public headers
# (include/sonnx/: the C++ and C APIs, the backend plugin ABI), a CMake package
# (find_package(sonnx CONFIG) -> sonnx::sonnx), sonnx.pc, the Python package and the data files
# (share/sonnx: profiles, skip and tolerance lists). CPack makes three Debian packages of them:
# sonnx (runtime component), libsonnx-dev (dev) and python3-sonnx (python).
include(CMakePackageConfigHelpers)

set(SONNX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/sonnx)
target_compile_features(libsonnx PUBLIC cxx_std_20)

install(TARGETS sonnx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(TARGETS libsonnx EXPORT sonnxTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/sonnx DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(EXPORT sonnxTargets NAMESPACE sonnx:: DESTINATION ${SONNX_CMAKE_DIR} COMPONENT dev)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/sonnxConfig.cmake
  "# find_package(sonnx CONFIG): the imported target sonnx::sonnx (libsonnx.so, include/sonnx/).\n"
  "include(\${CMAKE_CURRENT_LIST_DIR}/sonnxTargets.cmake)\n")
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/sonnxConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/sonnxConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/sonnxConfigVersion.cmake
  DESTINATION ${SONNX_CMAKE_DIR} COMPONENT dev)

# sonnx.pc finds its prefix from its own place, so an installed tree may be moved.
file(RELATIVE_PATH SONNX_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
file(RELATIVE_PATH SONNX_PC_LIBDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH SONNX_PC_INCLUDEDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/sonnx.pc
  "prefix=\${pcfiledir}/${SONNX_PC_TO_PREFIX}\nlibdir=\${prefix}/${SONNX_PC_LIBDIR}\nincludedir=\${prefix}/${SONNX_PC_INCLUDEDIR}\n\n"
  "Name: sonnx\nDescription: ONNX reference interpreter, validator and conformance suite (SONNX semantics)\n"
  "Version: ${PROJECT_VERSION}\nLibs: -L\${libdir} -lsonnx\nCflags: -I\${includedir}\n")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/sonnx.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/spec/profiles DESTINATION ${CMAKE_INSTALL_DATADIR}/sonnx/spec COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/conformance/skips.txt ${PROJECT_SOURCE_DIR}/conformance/tolerances.txt
  DESTINATION ${CMAKE_INSTALL_DATADIR}/sonnx/conformance COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/conformance/data/generate-onnx-suite.py
  DESTINATION ${CMAKE_INSTALL_DATADIR}/sonnx/conformance/data COMPONENT runtime)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sonnx)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "sonnx developers <sonnx-dev@lists.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ONNX reference interpreter, validator and conformance suite (SONNX semantics)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev python)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME sonnx)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)  # dpkg-shlibdeps: protobuf, onnx, oneDNN, MPFR, Z3, ... of Debian 12
set(CPACK_DEBIAN_RUNTIME_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "sonnx command-line tool and shared library\n The sonnx executable (check, run, conform, certify, enclose, ...) and libsonnx.so.0.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libsonnx-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "sonnx (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION "sonnx C and C++ development files\n Headers (include/sonnx), the CMake package sonnx::sonnx and sonnx.pc.")
set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-sonnx)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "sonnx (= ${PROJECT_VERSION}), python3 (>= 3.11), python3 (<< 3.12), python3-numpy")
set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS python3-onnx)  # sonnx.backend, onnx's backend interface, imports onnx
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_DESCRIPTION "sonnx Python bindings\n import sonnx: check, run, Session, conform, enclose; sonnx.backend: onnx's backend interface.")
include(CPack)
