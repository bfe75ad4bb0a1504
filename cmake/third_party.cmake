# Makes one include folder holding `simde/` (and `catch2/` for the tests) as symlinks.
#
# The Emscripten sysroot does not search /usr/include, and adding /usr/include whole would pull
# glibc headers into a wasm build; a folder with only these two links works for both targets.
set(TP_THIRD_PARTY_INCLUDE "${CMAKE_BINARY_DIR}/third_party_include")
file(MAKE_DIRECTORY "${TP_THIRD_PARTY_INCLUDE}")

function(tp_link_header_folder name probe)
  find_path(_dir NAMES "${name}/${probe}" PATHS /usr/include /usr/local/include
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT _dir)
    message(FATAL_ERROR "${name}/${probe} not found. Run scripts/setup.sh (it installs "
                        "libsimde-dev and catch2 with apt-get).")
  endif()
  if(NOT EXISTS "${TP_THIRD_PARTY_INCLUDE}/${name}")
    file(CREATE_LINK "${_dir}/${name}" "${TP_THIRD_PARTY_INCLUDE}/${name}" SYMBOLIC)
  endif()
  unset(_dir CACHE)
endfunction()

tp_link_header_folder(simde x86/sse2.h)
if(TP_BUILD_TESTS)
  tp_link_header_folder(catch2 catch.hpp)
endif()
