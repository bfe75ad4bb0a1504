# tp_embed_files(OUT_VAR files...): compiles data files into the library as byte arrays.
#
# The built-in tasks' data (phrase pairs, sentences, the language-model text) must be inside the
# wasm module, because the page downloads nothing but the module. Each file becomes
# `tp::embedded::files()` entry {name, bytes, size}; embed_file_to_cpp.cmake does the conversion.
function(tp_embed_files out_var files)
  set(generated "${CMAKE_BINARY_DIR}/generated/embedded_data.cpp")
  add_custom_command(
    OUTPUT "${generated}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${generated}" "-DFILES=${files}"
            -P "${PROJECT_SOURCE_DIR}/cmake/embed_file_to_cpp.cmake"
    DEPENDS ${files} "${PROJECT_SOURCE_DIR}/cmake/embed_file_to_cpp.cmake"
    COMMENT "Embedding task data"
    VERBATIM)
  set(${out_var} "${generated}" PARENT_SCOPE)
endfunction()
