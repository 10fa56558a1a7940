# pith batch: unit tests (tests/unit/batch_test.cpp) and CLI-level tests driven by
# tests/batch/batch_suite.py (python3 standard library only). Each case runs in its own
# temporary directory on PDFs it makes itself; the `corpus` case uses the shared corpus
# (${CMAKE_SOURCE_DIR}/../shared/corpus or $PITH_SHARED/corpus) and exits 77 (skipped)
# without it; `gnu_parallel` exits 77 when GNU parallel is not installed.

if(DEFINED ENV{PITH_SHARED})
  set(PITH_BATCH_SHARED "$ENV{PITH_SHARED}")
else()
  set(PITH_BATCH_SHARED "${CMAKE_SOURCE_DIR}/../shared")
endif()

foreach(case manifest_errors basic rerun_no_work interrupted_resumes killed_resumes worker_crash worker_killed_retried
             worker_timeout worker_memory shard verify_mode examples gnu_parallel corpus)
  add_test(NAME batch_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/batch/batch_suite.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} --shared ${PITH_BATCH_SHARED} ${case})
  set_tests_properties(batch_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "batch")
endforeach()
