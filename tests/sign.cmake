# SPDX-License-Identifier: MIT
# Publisher-signed stamps (pith stamp --sign-*, pith verify --trust); tests/sign/sign_suite.py
# holds every case, each its own ctest. `sign_setup` (a fixture) makes a test PKI with openssl,
# an NSS database for pdfsig (certutil, libnss3-tools) and a registry test key. Nothing skips:
# a missing tool, corpus (PITH_TEST_CORPUS, tests/CMakeLists.txt) or corpus file fails.
set(PITH_SIGN_WORK ${CMAKE_CURRENT_BINARY_DIR}/sign-work)

function(pith_sign_test case timeout)
  add_test(NAME sign_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/sign/sign_suite.py
            --pith $<TARGET_FILE:pith> --source ${CMAKE_SOURCE_DIR} --work ${PITH_SIGN_WORK}
            --corpus ${PITH_TEST_CORPUS} ${case})
  set_tests_properties(sign_${case} PROPERTIES TIMEOUT ${timeout} LABELS "sign")
  if(case STREQUAL "setup")
    set_tests_properties(sign_${case} PROPERTIES FIXTURES_SETUP pith_sign_pki)
  else()
    set_tests_properties(sign_${case} PROPERTIES FIXTURES_REQUIRED pith_sign_pki)
  endif()
endfunction()

pith_sign_test(setup 300)          # test PKI, NSS db, a signed stamp that pdfsig and openssl accept
pith_sign_test(rsa_ec 300)         # RSA 3072 and ECDSA P-256: pdfsig, openssl cms, qpdf; stamp.signed; --require-signed-stamp
pith_sign_test(certificates 300)   # expired / untrusted CA / no digitalSignature: each its own finding
pith_sign_test(tamper_byte 300)    # a byte in either covered range: pdfsig invalid, stamp.signature_invalid naming the signer
pith_sign_test(tamper_content 300) # a revision replacing page text: pdfsig partial, stamp.changed_after_signing
pith_sign_test(tamper_restamp 300) # stamped again by someone else: named signer
pith_sign_test(restamp_signed 300) # restamping a signed stamp: stamp.drops_signatures naming it; --drop-signatures (pdfsig, qpdf)
pith_sign_test(restamp_signed_batch 120) # the same in pith batch: error_code stamp.drops_signatures; "drop_signatures" in the manifest
pith_sign_test(signed_twice 300)   # an earlier signature stays valid (pdfsig, openssl) under a new one
pith_sign_test(keys 300)           # key mode, passphrase file/env, wrong passphrase, mismatched key, PKCS#12
pith_sign_test(certify 300)        # --certify: DocMDP P=2; refused on a signed PDF; replacing a signed stamp needs --drop-signatures
pith_sign_test(encrypted 300)      # RC4, AES-128, AES-256 files stay encrypted; the signature validates
pith_sign_test(hostile_form 60)    # a /Kids loop in the form: signing and verifying stay quick
pith_sign_test(batch 300)          # pith batch --sign-*, --verify --trust --require-signed-stamp
pith_sign_test(corpus 2400)        # every valid, signed, PDF/A and encrypted corpus file
