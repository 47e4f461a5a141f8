# Runs PRODUCER LOGFILE (it writes the log file in its own process), then CONSUMER LOGFILE
# MANIFEST, and compares the consumer's standard output with the file EXPECTED.
execute_process(COMMAND ${PRODUCER} ${LOGFILE} RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PRODUCER} exited with ${rc}:\n${err}")
endif()
execute_process(COMMAND ${CONSUMER} ${LOGFILE} ${MANIFEST} OUTPUT_VARIABLE out
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CONSUMER} exited with ${rc}:\n${out}${err}")
endif()
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "unexpected output:\n${out}\nexpected:\n${expected}")
endif()
