import COpenSSL

/// The keyring's cryptography, through OpenSSL's EVP API: scrypt, SHA-256/512, AES-256-GCM and the random
/// generator. Every function returns `nil` or `false` on failure rather than throwing, so the caller picks the
/// error (a tag that does not verify is the normal "damaged" case, not an OpenSSL failure).
enum KeyringCrypto {
    static let keyLength = 32
    static let nonceLength = 12
    static let tagLength = 16

    /// `count` random bytes from OpenSSL's CSPRNG.
    static func random(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        return ok == 1 ? bytes : nil
    }

    /// The `maxmem` given to OpenSSL: the work factor's 256 MiB bound plus 1 MiB for scrypt's smaller buffers
    /// (128 · r · p bytes and two more blocks), a fixed ceiling that no header can raise.
    static let scryptMaximumMemory = UInt64(FileCredentialStore.WorkFactor.maximumMemory + (1 << 20))

    /// scrypt(`secret`, `salt`, N = 2^log2N, r, p) into `output`; fails rather than use more than
    /// ``scryptMaximumMemory``.
    static func scrypt(
        secret: UnsafeRawBufferPointer, salt: [UInt8], log2N: UInt8, r: UInt8, p: UInt8,
        into output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        let n = UInt64(1) << UInt64(log2N)
        return salt.withUnsafeBufferPointer { salt in
            EVP_PBE_scrypt(
                secret.baseAddress?.assumingMemoryBound(to: CChar.self), secret.count, salt.baseAddress, salt.count,
                n, UInt64(r), UInt64(p), scryptMaximumMemory, output.baseAddress?.assumingMemoryBound(to: UInt8.self),
                output.count
            ) == 1
        }
    }

    /// The SHA-256 or SHA-512 digest of `data` into `output` (32 or 64 bytes).
    static func digest(_ data: UnsafeRawBufferPointer, sha512: Bool, into output: UnsafeMutableRawBufferPointer) -> Bool
    {
        var length: UInt32 = 0
        return EVP_Digest(
            data.baseAddress, data.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length,
            sha512 ? EVP_sha512() : EVP_sha256(), nil) == 1
    }

    /// AES-256-GCM encryption: the ciphertext followed by the 16-byte tag, authenticating `aad` too.
    static func seal(
        _ plaintext: [UInt8], key: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8]
    ) -> [UInt8]? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        var length: Int32 = 0
        guard start(context, encrypt: true, key: key, nonce: nonce),
            aad.isEmpty || EVP_EncryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1
        else { return nil }
        let ok = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard let base = out.baseAddress else { return false }
            guard
                plaintext.isEmpty || EVP_EncryptUpdate(context, base, &length, plaintext, Int32(plaintext.count)) == 1,
                EVP_EncryptFinal_ex(context, base + Int(length), &length) == 1
            else { return false }
            return EVP_CIPHER_CTX_ctrl(
                context, c_openssl_ctrl_gcm_get_tag(), Int32(tagLength), base + plaintext.count) == 1
        }
        return ok ? output : nil
    }

    /// AES-256-GCM decryption of ciphertext-then-tag; `nil` when the tag does not verify.
    static func open(
        _ sealed: ArraySlice<UInt8>, key: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8]
    ) -> [UInt8]? {
        guard sealed.count >= tagLength, let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let ciphertext = Array(sealed.dropLast(tagLength))
        var tag = Array(sealed.suffix(tagLength))
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var length: Int32 = 0
        guard start(context, encrypt: false, key: key, nonce: nonce),
            aad.isEmpty || EVP_DecryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1
        else { return nil }
        var total = 0
        let ok = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard let base = out.baseAddress else { return false }
            if !ciphertext.isEmpty {
                guard EVP_DecryptUpdate(context, base, &length, ciphertext, Int32(ciphertext.count)) == 1 else {
                    return false
                }
                total = Int(length)
            }
            guard EVP_CIPHER_CTX_ctrl(context, c_openssl_ctrl_gcm_set_tag(), Int32(tagLength), &tag) == 1 else {
                return false
            }
            guard EVP_DecryptFinal_ex(context, base + total, &length) == 1 else { return false }
            total += Int(length)
            return true
        }
        guard ok else {
            output.wipe()
            return nil
        }
        output.removeLast(output.count - total)
        return output
    }

    private static func start(
        _ context: OpaquePointer, encrypt: Bool, key: UnsafeRawBufferPointer, nonce: [UInt8]
    ) -> Bool {
        let initialise = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
        guard key.count == keyLength, nonce.count == nonceLength,
            initialise(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, c_openssl_ctrl_gcm_set_ivlen(), Int32(nonceLength), nil) == 1
        else { return false }
        return initialise(context, nil, nil, key.baseAddress?.assumingMemoryBound(to: UInt8.self), nonce) == 1
    }
}
