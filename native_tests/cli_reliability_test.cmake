# ctest script: what the `tp` command line promises when a run goes wrong or the input is odd
# (run by ctest with -DTP=<path to tp> -DWORK=<dir>):
#   - numbers that are not finite print as null in --json output, and a diverging run is flagged;
#   - --out is written only when the model is saved: a failed run leaves no file;
#   - Ctrl-C (SIGINT) or SIGTERM saves the model of the last completed step and exits 130 / 143;
#   - `-` reads standard input, `--` ends the options, usage errors exit 2, others 1;
#   - every command takes --json (one document on stdout; errors as JSON on stderr);
#   - checkpoints with weights that are not finite are refused unless asked for, and unknown
#     metadata keys are reported as warnings.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# run(<args>): sets rc, out and err in the caller.
macro(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endmacro()
macro(run_with_input input)
  execute_process(COMMAND ${ARGN} INPUT_FILE "${input}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endmacro()

function(check condition_text)
  if(${ARGN})
  else()
    message(FATAL_ERROR "${condition_text}")
  endif()
endfunction()

macro(expect_status status)
  run(${ARGN})
  if(NOT rc STREQUAL "${status}")
    message(FATAL_ERROR "expected exit status ${status}, got ${rc}: ${ARGN}\nstdout: ${out}\nstderr: ${err}")
  endif()
endmacro()

# The last non-empty line of `text`.
function(last_line text var)
  string(STRIP "${text}" text)
  string(FIND "${text}" "\n" at REVERSE)
  math(EXPR at "${at} + 1")
  string(SUBSTRING "${text}" ${at} -1 line)
  set(${var} "${line}" PARENT_SCOPE)
endfunction()

# string(JSON) fails the script on anything that is not JSON, which is part of the check.
function(json_get var json)
  string(JSON value ERROR_VARIABLE problem GET "${json}" ${ARGN})
  if(problem)
    message(FATAL_ERROR "not the JSON expected (${ARGN}): ${problem}\n${json}")
  endif()
  set(${var} "${value}" PARENT_SCOPE)
endfunction()

# ---- a diverging run: --json keeps printing (null for what overflowed) and the run is flagged ----
set(diverged "${WORK}/diverged.safetensors")
expect_status(0 ${TP} train --task qa-toy --steps 20 --lr 10 --warmup 0 --eval-every 1 --json --out ${diverged})
string(REGEX REPLACE "\n$" "" lines "${out}")
string(REPLACE "\n" ";" lines "${lines}")
list(LENGTH lines count)
check("one JSON line per step, got ${count}" count EQUAL 21)
set(nulls 0)
foreach(line IN LISTS lines)
  string(JSON kind TYPE "${line}" evaluation perplexity)
  if(kind STREQUAL "NULL")
    math(EXPR nulls "${nulls} + 1")
  endif()
endforeach()
check("an overflowing perplexity is written as null" nulls GREATER 0)
last_line("${out}" final)
json_get(flag "${final}" diverged_at)
check("the final report names the step that diverged, got ${flag}" flag GREATER 0)
json_get(saved "${final}" saved)
check("the diverged model is saved" EXISTS "${diverged}")
expect_status(0 ${TP} train --task qa-toy --steps 20 --lr 10 --warmup 0)
check("a diverging run warns on stderr:\n${err}" err MATCHES "warning: training diverged at step [0-9]+ .*lower the learning rate \\(--lr, now 10\\) or add warm-up steps \\(--warmup, now 0\\)")
check("the summary says the run diverged:\n${out}" out MATCHES "\\(diverged at step [0-9]+\\)")
expect_status(0 ${TP} train --task qa-toy --steps 200 --seed 1)
check("a good run is not flagged:\n${err}" NOT err MATCHES "diverged")

# ---- --out appears only when the model is saved ----
foreach(bad "--d-model;7" "--lr;-1" "--batch-size;4096;--task;lm-char")
  set(path "${WORK}/never.safetensors")
  run(${TP} train --task qa-toy ${bad} --steps 5 --out ${path})
  check("expected a failure from ${bad}" NOT rc EQUAL 0)
  check("a failed run (${bad}) left ${path} behind" NOT EXISTS "${path}")
endforeach()
run(${TP} train --task text --data ${WORK}/missing.txt --out ${WORK}/never.safetensors)
check("a missing data file is an error (1), got ${rc}" rc EQUAL 1)
check("a run that could not read its data left a file behind" NOT EXISTS "${WORK}/never.safetensors")
file(MAKE_DIRECTORY "${WORK}/folder.safetensors")
expect_status(2 ${TP} train --task qa-toy --steps 1 --out ${WORK}/folder.safetensors)
check("--out naming a folder says so: ${err}" err MATCHES "it is a folder")
expect_status(2 ${TP} train --task qa-toy --steps 1 --out ${WORK}/no/such/folder/m.safetensors)
check("--out in a missing folder says so: ${err}" err MATCHES "the folder '.*/no/such/folder' does not exist")

# ---- Ctrl-C and SIGTERM save the last completed step ----
foreach(signal INT TERM)
  set(model "${WORK}/interrupted_${signal}.safetensors")
  set(lines_file "${WORK}/interrupted_${signal}.jsonl")
  # The shell starts training, waits for its first report, then sends the signal to it alone.
  execute_process(COMMAND sh -c "\"$0\" train --task lm-char --steps 100000 --eval-every 1 --json --out \"$1\" > \"$2\" & pid=$!; \
    while [ ! -s \"$2\" ] && kill -0 $pid 2>/dev/null; do sleep 0.1; done; kill -${signal} $pid; wait $pid"
    ${TP} ${model} ${lines_file} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(signal STREQUAL "INT")
    check("Ctrl-C exits 130, got ${rc}: ${err}" rc EQUAL 130)
  else()
    check("SIGTERM exits 143, got ${rc}: ${err}" rc EQUAL 143)
  endif()
  check("the interrupted run saved ${model}" EXISTS "${model}")
  file(READ "${lines_file}" lines)
  last_line("${lines}" final)
  json_get(how "${final}" interrupted)
  check("the last line says SIG${signal} stopped it, got ${how}" how STREQUAL "SIG${signal}")
  json_get(step "${final}" step)
  check("it stopped long before the end (step ${step})" step LESS 100000)
  expect_status(0 ${TP} inspect --model ${model})
  check("the saved model is the task's" out MATCHES "task: lm-char")
endforeach()
execute_process(COMMAND sh -c "\"$0\" train --task lm-char --steps 100000 --out \"$1\" 2> \"$2\" & pid=$!; \
  while ! grep -q 'step [0-9][0-9]*/' \"$2\" && kill -0 $pid 2>/dev/null; do sleep 0.1; done; kill -INT $pid; wait $pid"
  ${TP} ${WORK}/plain.safetensors ${WORK}/plain.txt RESULT_VARIABLE rc)
file(READ "${WORK}/plain.txt" err)
check("Ctrl-C without --json exits 130, got ${rc}" rc EQUAL 130)
check("and says what it saved:\n${err}" err MATCHES "interrupted by SIGINT after step [0-9]+ of 100000. saved .*plain.safetensors \\(the model after step [0-9]+\\)")

# ---- standard input, --, exit statuses, seeds ----
set(qa "${WORK}/qa.safetensors")
expect_status(0 ${TP} train --task qa-toy --steps 600 --seed 1 --out ${qa})
file(WRITE "${WORK}/prompt.txt" "how are you\n")
run_with_input("${WORK}/prompt.txt" ${TP} generate --model ${qa} --prompt -)
check("--prompt - reads standard input (trailing newline dropped), got '${out}' (${rc}): ${err}" out STREQUAL "i am fine\n")
file(WRITE "${WORK}/text.txt" "the cat sat on the mat. the dog sat on the log. the cat saw the dog.\n")
run_with_input("${WORK}/text.txt" ${TP} train --task text --data - --steps 3 --out ${WORK}/stdin.safetensors)
check("--data - trains on standard input (${rc}): ${err}" rc EQUAL 0 AND EXISTS "${WORK}/stdin.safetensors")
run_with_input("${WORK}/prompt.txt" ${TP} tokenize --tokenizer word -)
check("tokenize - reads standard input:\n${out}" out MATCHES "3 tokens:")
run_with_input("${WORK}/prompt.txt" ${TP} tokenize --tokenizer char --train-text - -)
check("two uses of standard input are a usage error (${rc}): ${err}" rc EQUAL 2 AND err MATCHES "both ask for standard input")
expect_status(0 ${TP} tokenize --tokenizer char -- --json)
check("after -- a word is text, not an option:\n${out}" out MATCHES "6 tokens:")
foreach(usage "train;--task;qa-toy;--lr8;3" "train;--task;nope" "train;--task;qa-toy;--steps;many" "train;--task;qa-toy;--d-model;7"
        "generate;--model;${qa}" "generate;--model;${qa};--prompt;hi;--top-p;2" "tokenize;--tokenizer;char" "tasks;extra" "fly"
        "train;--task;qa-toy;--seed;-1" "train;--task;qa-toy;--seed;1.5" "train;--task;qa-toy;--seed;9007199254740992"
        "generate;--model;${qa};--prompt;hi;--seed;-3")
  run(${TP} ${usage})
  check("a usage error exits 2, got ${rc}: tp ${usage}\n${err}" rc EQUAL 2)
endforeach()
expect_status(2 ${TP} train --task qa-toy --seed -1)
check("a negative seed names the range: ${err}" err MATCHES "seed = -1 is out of range. allowed: 0 \\.\\. 9007199254740991")
foreach(runtime "generate;--model;${WORK}/missing.safetensors;--prompt;hi" "generate;--model;${qa};--prompt;hello world"
        "train;--task;text;--data;${WORK}/missing.txt")
  run(${TP} ${runtime})
  check("an error while running exits 1, got ${rc}: tp ${runtime}\n${err}" rc EQUAL 1)
endforeach()

# ---- --json on every command ----
expect_status(0 ${TP} generate --model ${qa} --prompt "how are you" --json --top-k-probs 2)
json_get(text "${out}" text)
check("generate --json gives the text, got ${text}" text STREQUAL "i am fine")
json_get(reason "${out}" stop_reason)
check("and why it stopped, got ${reason}" reason STREQUAL "eos")
json_get(token "${out}" steps 0 top 1 token)
expect_status(0 ${TP} inspect --model ${qa} --json)
json_get(count "${out}" parameter_count)
check("inspect --json counts the parameters, got ${count}" count EQUAL 1020)
json_get(name "${out}" tensors 0 name)
check("and lists the tensors, got ${name}" name STREQUAL "tok_emb.weight")
json_get(warnings "${out}" warnings)
check("a clean checkpoint has no warnings, got ${warnings}" warnings STREQUAL "[]")
expect_status(0 ${TP} tokenize --tokenizer char "한국어 ok" --json)
json_get(span "${out}" tokens 0 utf16)
check("tokenize --json gives UTF-16 spans, got ${span}" span MATCHES "^\\[ *0, *1 *\\]$")
expect_status(0 ${TP} tasks --json)
json_get(task "${out}" tasks 0 name)
check("tasks --json lists the tasks, got ${task}" task STREQUAL "qa-toy")
foreach(command "train;--task;nope" "generate;--model;${WORK}/missing.safetensors;--prompt;hi" "inspect" "tokenize" "tasks;x")
  run(${TP} ${command} --json)
  json_get(message "${err}" error)
  json_get(status "${err}" status)
  check("an error with --json is a JSON object on stderr with its status (${rc} vs ${status})" status EQUAL rc)
endforeach()

# ---- checkpoints: weights that are not finite, unknown metadata keys, unknown tasks ----
file(READ "${qa}" hex HEX)
# CMake cannot write bytes from a string (no NUL); perl (Debian's essential perl-base) can.
function(unhex from to status)
  execute_process(COMMAND perl -e "local $/; open(my $i, '<', $ARGV[0]) or die; open(my $o, '>:raw', $ARGV[1]) or die; print $o pack('H*', <$i>)"
                  "${from}" "${to}" RESULT_VARIABLE written)
  set(${status} ${written} PARENT_SCOPE)
endfunction()
# A copy with `bytes` (hex) put in place of `from` (text of the same length) in the header.
function(patched_copy path from to)
  string(HEX "${from}" from_hex)
  string(HEX "${to}" to_hex)
  string(FIND "${hex}" "${from_hex}" at)
  math(EXPR odd "${at} % 2")
  check("'${from}' is in the checkpoint's header" at GREATER 0 AND odd EQUAL 0)
  string(REPLACE "${from_hex}" "${to_hex}" changed "${hex}")
  file(WRITE "${path}.hex" "${changed}")
  unhex("${path}.hex" "${path}" written)
  check("could write ${path}" written EQUAL 0)
endfunction()
patched_copy("${WORK}/typo.safetensors" "\"tokenizer\":" "\"tokenizex\":")
expect_status(0 ${TP} inspect --model ${WORK}/typo.safetensors)
check("an unknown metadata key is a warning naming the key it nearly is:\n${err}"
      err MATCHES "warning: checkpoint: metadata key 'tokenizex' is not one this version reads, so it was ignored \\(did you mean 'tokenizer'")
check("the model was loaded without its tokenizer" out MATCHES "tokenizer: none")
expect_status(0 ${TP} inspect --model ${WORK}/typo.safetensors --json)
json_get(first "${out}" warnings 0)
check("inspect --json lists the warning: ${first}" first MATCHES "tokenizex")
patched_copy("${WORK}/task.safetensors" "\"task\":\"qa-toy\"" "\"task\":\"qa-tox\"")
expect_status(1 ${TP} generate --model ${WORK}/task.safetensors --prompt "how are you")
check("an unknown task name is a checkpoint error: ${err}" err MATCHES "error: checkpoint: metadata 'task' is not a task this version knows: there is no task named 'qa-tox'")
# The last value of the last tensor becomes NaN (0x7fc00000, little-endian).
string(LENGTH "${hex}" length)
math(EXPR keep "${length} - 8")
string(SUBSTRING "${hex}" 0 ${keep} nan_hex)
file(WRITE "${WORK}/nan.hex" "${nan_hex}0000c07f")
unhex("${WORK}/nan.hex" "${WORK}/nan.safetensors" written)
expect_status(1 ${TP} generate --model ${WORK}/nan.safetensors --prompt "how are you")
check("weights that are not finite are refused: ${err}"
      err MATCHES "checkpoint: tensor 'lm_head.weight' holds 1 value that is not finite \\(at index [0-9]+: NaN\\).*set allow_non_finite")
expect_status(0 ${TP} inspect --model ${WORK}/nan.safetensors --allow-non-finite true --json)
json_get(first "${out}" warnings 0)
check("--allow-non-finite true loads it with a warning: ${first}" first MATCHES "loaded because allow_non_finite is set")

# ---- the help pages state these guarantees ----
expect_status(0 ${TP} train --help)
check("train --help tells what Ctrl-C does" out MATCHES "Ctrl-C \\(or SIGTERM\\) stops after the step in progress, saves")
check("train --help tells how a step diverges" out MATCHES "A step diverges when")
check("train --help tells when --out is written" out MATCHES "the file is written\n *only when the model is saved")
check("train --help tells the exit statuses" out MATCHES "2 a usage error")
expect_status(0 ${TP} --help)
check("tp --help tells about --json, - and --" out MATCHES "Every command takes --json.*`-`.*`--` ends the options")
