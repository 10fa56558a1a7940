# SPDX-License-Identifier: MIT
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

# The corpus case compares batch with `pith stamp` alone on every third corpus file; every file
# with -DPITH_TESTS_FULL=ON.
set(_pith_batch_full "")
if(PITH_TESTS_FULL)
  set(_pith_batch_full --full)
endif()
foreach(case manifest_errors basic rerun_no_work interrupted_resumes killed_resumes worker_crash worker_killed_retried
             worker_timeout worker_memory shard verify_mode verdicts examples gnu_parallel corpus corpus_selftest)
  add_test(NAME batch_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/batch/batch_suite.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} --shared ${PITH_BATCH_SHARED} ${_pith_batch_full} ${case})
  set_tests_properties(batch_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "batch")
endforeach()

# The cluster recipes, run as shipped (tests/batch/slurm_test.py). batch_cluster_shards: the shard
# arithmetic of slurm-array.sbatch and k8s-indexed-job.yaml (every entry in exactly one shard).
# batch_cluster_signals: the recipe's script signalled as scancel does (every process at once).
# batch_cluster_merge: merge-reports.sh's refusals (a shard missing, not ended, run against another
# manifest or split, an entry without result) over real shard reports; 77 without jq.
# batch_slurm: a one-node Slurm cluster started in a scratch folder runs slurm-array.sbatch; exits
# 77 (skipped, with the reason) without root, slurmctld/slurmd/slurm-client/munge/jq, or when the
# daemons do not start. About a minute; RUN_SERIAL as its tasks use every CPU.
set(PITH_CLUSTER_TEST ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/batch/slurm_test.py
    --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} --shared ${PITH_BATCH_SHARED})
add_test(NAME batch_cluster_shards COMMAND ${PITH_CLUSTER_TEST} shards)
set_tests_properties(batch_cluster_shards PROPERTIES TIMEOUT 300 LABELS "batch")
add_test(NAME batch_cluster_signals COMMAND ${PITH_CLUSTER_TEST} signals)
set_tests_properties(batch_cluster_signals PROPERTIES TIMEOUT 300 LABELS "batch")
add_test(NAME batch_cluster_merge COMMAND ${PITH_CLUSTER_TEST} merge)
set_tests_properties(batch_cluster_merge PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "batch")
add_test(NAME batch_slurm COMMAND ${PITH_CLUSTER_TEST} slurm)
set_tests_properties(batch_slurm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "batch;slurm" RUN_SERIAL TRUE)
