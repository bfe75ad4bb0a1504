# Warnings for our own code (third-party headers are SYSTEM includes and stay quiet).
function(tp_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()
