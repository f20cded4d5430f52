// sRGB transfer functions of the device format codec, as tables that reproduce the host
// codec (src/frontend/format_codec.cpp) exactly.
//
// Every sRGB channel of formats.def is 8-bit UNORM, so both directions are functions of
// an 8-bit code:
// * decode: clp_srgb8_to_linear_table[v] is the host's srgb_to_linear(v / 255.0f);
// * encode: code k is the number of thresholds clp_linear_to_srgb8_threshold[1..k] that
//   x reaches, where threshold k is the smallest float whose host encode
//   (linear_to_srgb, then UNORM8 rounding) is >= k. A binary search replaces pow(), and
//   the result does not depend on the precision of the device's pow/exp.
// The values come from this machine's host codec (glibc powf); the device test
// "sRGB tables are the host codec's" recomputes both tables from the host functions and
// prints the text to paste here if they ever differ. When generated, every float in
// [0, 1] was checked to encode identically through the thresholds and the host.
// Producer: the host codec (via that test); consumers: format.h decode/encode paths.
#ifndef CLPIPE_KERNELS_FORMAT_SRGB_H
#define CLPIPE_KERNELS_FORMAT_SRGB_H

// clang-format off
constant float clp_srgb8_to_linear_table[256] = {
    0.0f, 0x1.3e4568p-12f, 0x1.3e4568p-11f, 0x1.dd681cp-11f,
    0x1.3e4568p-10f, 0x1.8dd6c2p-10f, 0x1.dd681cp-10f, 0x1.167cbap-9f,
    0x1.3e4568p-9f, 0x1.660e16p-9f, 0x1.8dd6c2p-9f, 0x1.b6a31ap-9f,
    0x1.e1e31ap-9f, 0x1.07c38cp-8f, 0x1.1fcc2cp-8f, 0x1.390ffap-8f,
    0x1.53936ep-8f, 0x1.6f5adep-8f, 0x1.8c6a92p-8f, 0x1.aac6c2p-8f,
    0x1.ca7382p-8f, 0x1.eb74ep-8f, 0x1.06e76ap-7f, 0x1.18c2a4p-7f,
    0x1.2b4e06p-7f, 0x1.3e8b7cp-7f, 0x1.527cd6p-7f, 0x1.6723eep-7f,
    0x1.7c8292p-7f, 0x1.929a86p-7f, 0x1.a96d8ep-7f, 0x1.c0fd62p-7f,
    0x1.d94bbep-7f, 0x1.f25a44p-7f, 0x1.06155p-6f, 0x1.135f3ep-6f,
    0x1.210bb6p-6f, 0x1.2f1b8ap-6f, 0x1.3d8f84p-6f, 0x1.4c6866p-6f,
    0x1.5ba6fap-6f, 0x1.6b4c02p-6f, 0x1.7b584p-6f, 0x1.8bcc72p-6f,
    0x1.9ca956p-6f, 0x1.adefaap-6f, 0x1.bfa02p-6f, 0x1.d1bb72p-6f,
    0x1.e44258p-6f, 0x1.f73582p-6f, 0x1.054ad2p-5f, 0x1.0f31b8p-5f,
    0x1.194fccp-5f, 0x1.23a55ep-5f, 0x1.2e32c6p-5f, 0x1.38f85cp-5f,
    0x1.43f678p-5f, 0x1.4f2d64p-5f, 0x1.5a9d76p-5f, 0x1.6647p-5f,
    0x1.722a56p-5f, 0x1.7e47c6p-5f, 0x1.8a9fa2p-5f, 0x1.973238p-5f,
    0x1.a3ffdep-5f, 0x1.b108d4p-5f, 0x1.be4d6ep-5f, 0x1.cbcdfcp-5f,
    0x1.d98ac8p-5f, 0x1.e7841ep-5f, 0x1.f5ba52p-5f, 0x1.0216cep-4f,
    0x1.096f2ap-4f, 0x1.10e66p-4f, 0x1.187c94p-4f, 0x1.2031ecp-4f,
    0x1.28068ap-4f, 0x1.2ffa94p-4f, 0x1.380e2cp-4f, 0x1.404176p-4f,
    0x1.489496p-4f, 0x1.5107aep-4f, 0x1.599aep-4f, 0x1.624e5p-4f,
    0x1.6b2224p-4f, 0x1.741676p-4f, 0x1.7d2b6ap-4f, 0x1.866124p-4f,
    0x1.8fb7c4p-4f, 0x1.992f6cp-4f, 0x1.a2c83ep-4f, 0x1.ac8258p-4f,
    0x1.b65ddep-4f, 0x1.c05aeep-4f, 0x1.ca79aap-4f, 0x1.d4ba32p-4f,
    0x1.df1ca4p-4f, 0x1.e9a122p-4f, 0x1.f447dp-4f, 0x1.ff10c2p-4f,
    0x1.04fe0ep-3f, 0x1.0a85p-3f, 0x1.101d46p-3f, 0x1.15c6fp-3f,
    0x1.1b820ap-3f, 0x1.214ea8p-3f, 0x1.272cd6p-3f, 0x1.2d1ca4p-3f,
    0x1.331e2p-3f, 0x1.39315ap-3f, 0x1.3f566p-3f, 0x1.458d46p-3f,
    0x1.4bd612p-3f, 0x1.5230d8p-3f, 0x1.589dap-3f, 0x1.5f1c82p-3f,
    0x1.65ad88p-3f, 0x1.6c50c2p-3f, 0x1.73063cp-3f, 0x1.79ce06p-3f,
    0x1.80a82cp-3f, 0x1.8794bep-3f, 0x1.8e93c8p-3f, 0x1.95a55cp-3f,
    0x1.9cc984p-3f, 0x1.a4004ep-3f, 0x1.ab49ccp-3f, 0x1.b2a606p-3f,
    0x1.ba1516p-3f, 0x1.c196f8p-3f, 0x1.c92bcp-3f, 0x1.d0d37ep-3f,
    0x1.d88e4p-3f, 0x1.e05c18p-3f, 0x1.e83d08p-3f, 0x1.f0312p-3f,
    0x1.f8387p-3f, 0x1.002984p-2f, 0x1.044078p-2f, 0x1.08611ap-2f,
    0x1.0c8b74p-2f, 0x1.10bf8ap-2f, 0x1.14fd64p-2f, 0x1.194506p-2f,
    0x1.1d967ap-2f, 0x1.21f1c2p-2f, 0x1.2656e8p-2f, 0x1.2ac5fp-2f,
    0x1.2f3ee2p-2f, 0x1.33c1c4p-2f, 0x1.384e9cp-2f, 0x1.3ce56ep-2f,
    0x1.418644p-2f, 0x1.463124p-2f, 0x1.4ae61p-2f, 0x1.4fa512p-2f,
    0x1.546e3p-2f, 0x1.59416ep-2f, 0x1.5e1ed2p-2f, 0x1.630666p-2f,
    0x1.67f83p-2f, 0x1.6cf43p-2f, 0x1.71fa6ep-2f, 0x1.770af2p-2f,
    0x1.7c25c2p-2f, 0x1.814ae2p-2f, 0x1.867a5ap-2f, 0x1.8bb42ep-2f,
    0x1.90f866p-2f, 0x1.964706p-2f, 0x1.9ba016p-2f, 0x1.a1039ap-2f,
    0x1.a67198p-2f, 0x1.abea16p-2f, 0x1.b16d1ap-2f, 0x1.b6faa8p-2f,
    0x1.bc92cap-2f, 0x1.c23582p-2f, 0x1.c7e2d6p-2f, 0x1.cd9acep-2f,
    0x1.d35d6cp-2f, 0x1.d92abap-2f, 0x1.df02bap-2f, 0x1.e4e574p-2f,
    0x1.ead2ecp-2f, 0x1.f0cb28p-2f, 0x1.f6ce2ep-2f, 0x1.fcdc04p-2f,
    0x1.017a5ap-1f, 0x1.048c1cp-1f, 0x1.07a34ep-1f, 0x1.0abff2p-1f,
    0x1.0de20cp-1f, 0x1.11099ep-1f, 0x1.1436acp-1f, 0x1.176936p-1f,
    0x1.1aa14p-1f, 0x1.1ddecep-1f, 0x1.2121e2p-1f, 0x1.246a7cp-1f,
    0x1.27b8a2p-1f, 0x1.2b0c56p-1f, 0x1.2e659ap-1f, 0x1.31c472p-1f,
    0x1.3528dep-1f, 0x1.3892e2p-1f, 0x1.3c0282p-1f, 0x1.3f77bep-1f,
    0x1.42f29cp-1f, 0x1.46731cp-1f, 0x1.49f94p-1f, 0x1.4d850cp-1f,
    0x1.511682p-1f, 0x1.54ada6p-1f, 0x1.584a7ap-1f, 0x1.5bedp-1f,
    0x1.5f953cp-1f, 0x1.63432ep-1f, 0x1.66f6d8p-1f, 0x1.6ab04p-1f,
    0x1.6e6f66p-1f, 0x1.72344cp-1f, 0x1.75fef8p-1f, 0x1.79cf6ap-1f,
    0x1.7da5a4p-1f, 0x1.8181a8p-1f, 0x1.85637cp-1f, 0x1.894b2p-1f,
    0x1.8d3896p-1f, 0x1.912be2p-1f, 0x1.952504p-1f, 0x1.992402p-1f,
    0x1.9d28dcp-1f, 0x1.a13396p-1f, 0x1.a5443p-1f, 0x1.a95aaep-1f,
    0x1.ad7714p-1f, 0x1.b1996p-1f, 0x1.b5c19ap-1f, 0x1.b9efcp-1f,
    0x1.be23d8p-1f, 0x1.c25ddcp-1f, 0x1.c69ddep-1f, 0x1.cae3d2p-1f,
    0x1.cf2fc6p-1f, 0x1.d381acp-1f, 0x1.d7d99ap-1f, 0x1.dc377ep-1f,
    0x1.e09b7p-1f, 0x1.e5055ep-1f, 0x1.e9755cp-1f, 0x1.edeb5cp-1f,
    0x1.f26772p-1f, 0x1.f6e98cp-1f, 0x1.fb71cp-1f, 0x1p+0f,
};

// Entry 0 is unused (every input reaches code 0).
constant float clp_linear_to_srgb8_threshold[256] = {
    0.0f, 0x1.3e4568p-13f, 0x1.dd681cp-12f, 0x1.8dd6c2p-11f,
    0x1.167cbap-10f, 0x1.660e16p-10f, 0x1.b59f6ep-10f, 0x1.029864p-9f,
    0x1.2a6112p-9f, 0x1.5229bep-9f, 0x1.79f26cp-9f, 0x1.a1e5a2p-9f,
    0x1.cbf734p-9f, 0x1.f86808p-9f, 0x1.13a0cp-8f, 0x1.2c4666p-8f,
    0x1.46297cp-8f, 0x1.614e62p-8f, 0x1.7db96cp-8f, 0x1.9b6ed8p-8f,
    0x1.ba72ccp-8f, 0x1.dac95cp-8f, 0x1.fc7688p-8f, 0x1.0fbf2p-7f,
    0x1.21f232p-7f, 0x1.34d664p-7f, 0x1.486d8ep-7f, 0x1.5cb98ep-7f,
    0x1.71bc32p-7f, 0x1.877746p-7f, 0x1.9dec8cp-7f, 0x1.b51dc4p-7f,
    0x1.cd0ca8p-7f, 0x1.e5bae6p-7f, 0x1.ff2a24p-7f, 0x1.0cae06p-6f,
    0x1.1a292p-6f, 0x1.28072cp-6f, 0x1.3648f8p-6f, 0x1.44ef5p-6f,
    0x1.53faf2p-6f, 0x1.636ca8p-6f, 0x1.734532p-6f, 0x1.838552p-6f,
    0x1.942dc6p-6f, 0x1.a53f48p-6f, 0x1.b6ba9ap-6f, 0x1.c8a068p-6f,
    0x1.daf16cp-6f, 0x1.edae5ep-6f, 0x1.006bf8p-5f, 0x1.0a376cp-5f,
    0x1.1439dcp-5f, 0x1.1e73a2p-5f, 0x1.28e514p-5f, 0x1.338e8ap-5f,
    0x1.3e7056p-5f, 0x1.498ad4p-5f, 0x1.54de48p-5f, 0x1.606b0cp-5f,
    0x1.6c3172p-5f, 0x1.7831ccp-5f, 0x1.846c68p-5f, 0x1.90e196p-5f,
    0x1.9d91a6p-5f, 0x1.aa7ce8p-5f, 0x1.b7a3a6p-5f, 0x1.c50632p-5f,
    0x1.d2a4d4p-5f, 0x1.e07fdcp-5f, 0x1.ee979cp-5f, 0x1.fcec4ep-5f,
    0x1.05bf24p-4f, 0x1.0d26e8p-4f, 0x1.14ad98p-4f, 0x1.1c535ap-4f,
    0x1.24185p-4f, 0x1.2bfcap-4f, 0x1.34006cp-4f, 0x1.3c23d8p-4f,
    0x1.446708p-4f, 0x1.4cca2p-4f, 0x1.554d4p-4f, 0x1.5df08ep-4f,
    0x1.66b42ep-4f, 0x1.6f983ap-4f, 0x1.789cd8p-4f, 0x1.81c22cp-4f,
    0x1.8b0854p-4f, 0x1.946f74p-4f, 0x1.9df7aep-4f, 0x1.a7a12p-4f,
    0x1.b16becp-4f, 0x1.bb5832p-4f, 0x1.c56614p-4f, 0x1.cf95b2p-4f,
    0x1.d9e72ap-4f, 0x1.e45a9ep-4f, 0x1.eef034p-4f, 0x1.f9a7fcp-4f,
    0x1.02411p-3f, 0x1.07bf5ep-3f, 0x1.0d4ef8p-3f, 0x1.12efeep-3f,
    0x1.18a24ep-3f, 0x1.1e6628p-3f, 0x1.243b8cp-3f, 0x1.2a2288p-3f,
    0x1.301b2ap-3f, 0x1.362584p-3f, 0x1.3c41a2p-3f, 0x1.426f96p-3f,
    0x1.48af6ep-3f, 0x1.4f0134p-3f, 0x1.5564f8p-3f, 0x1.5bdacep-3f,
    0x1.6262cp-3f, 0x1.68fcdep-3f, 0x1.6fa93ap-3f, 0x1.7667dap-3f,
    0x1.7d38dp-3f, 0x1.841c28p-3f, 0x1.8b11f4p-3f, 0x1.921a42p-3f,
    0x1.99351ep-3f, 0x1.a06296p-3f, 0x1.a7a2b8p-3f, 0x1.aef592p-3f,
    0x1.b65b32p-3f, 0x1.bdd3acp-3f, 0x1.c55fp-3f, 0x1.ccfd42p-3f,
    0x1.d4ae8p-3f, 0x1.dc72dp-3f, 0x1.e44a2ep-3f, 0x1.ec34bp-3f,
    0x1.f43262p-3f, 0x1.fc4354p-3f, 0x1.0233c8p-2f, 0x1.064f94p-2f,
    0x1.0a7512p-2f, 0x1.0ea448p-2f, 0x1.12dd4p-2f, 0x1.171ffcp-2f,
    0x1.1b6c86p-2f, 0x1.1fc2e4p-2f, 0x1.24231ap-2f, 0x1.288d3p-2f,
    0x1.2d012ep-2f, 0x1.317f16p-2f, 0x1.3606f2p-2f, 0x1.3a98c6p-2f,
    0x1.3f349ap-2f, 0x1.43da74p-2f, 0x1.488a58p-2f, 0x1.4d445p-2f,
    0x1.52085ep-2f, 0x1.56d68cp-2f, 0x1.5baedcp-2f, 0x1.609158p-2f,
    0x1.657e02p-2f, 0x1.6a74eap-2f, 0x1.6f7608p-2f, 0x1.748168p-2f,
    0x1.799712p-2f, 0x1.7eb708p-2f, 0x1.83e154p-2f, 0x1.8915fap-2f,
    0x1.8e54fep-2f, 0x1.939e6ap-2f, 0x1.98f242p-2f, 0x1.9e508ap-2f,
    0x1.a3b94ap-2f, 0x1.a92c88p-2f, 0x1.aeaa48p-2f, 0x1.b4329p-2f,
    0x1.b9c568p-2f, 0x1.bf62d4p-2f, 0x1.c50adap-2f, 0x1.cabd7ep-2f,
    0x1.d07acap-2f, 0x1.d642bep-2f, 0x1.dc1564p-2f, 0x1.e1f2c2p-2f,
    0x1.e7dadap-2f, 0x1.edcdb2p-2f, 0x1.f3cb52p-2f, 0x1.f9d3cp-2f,
    0x1.ffe6fep-2f, 0x1.03028ep-1f, 0x1.061708p-1f, 0x1.0930f2p-1f,
    0x1.0c5052p-1f, 0x1.0f7528p-1f, 0x1.129f76p-1f, 0x1.15cf42p-1f,
    0x1.19048cp-1f, 0x1.1c3f58p-1f, 0x1.1f7fa8p-1f, 0x1.22c57ep-1f,
    0x1.2610ep-1f, 0x1.2961ccp-1f, 0x1.2cb848p-1f, 0x1.301454p-1f,
    0x1.3375f6p-1f, 0x1.36dd2ep-1f, 0x1.3a4ap-1f, 0x1.3dbc6ep-1f,
    0x1.41347ap-1f, 0x1.44b228p-1f, 0x1.48357ap-1f, 0x1.4bbe72p-1f,
    0x1.4f4d14p-1f, 0x1.52e16p-1f, 0x1.567b5cp-1f, 0x1.5a1b08p-1f,
    0x1.5dc06ap-1f, 0x1.616b8p-1f, 0x1.651c4ep-1f, 0x1.68d2d6p-1f,
    0x1.6c8f1cp-1f, 0x1.705122p-1f, 0x1.7418eap-1f, 0x1.77e678p-1f,
    0x1.7bb9cep-1f, 0x1.7f92eep-1f, 0x1.8371dap-1f, 0x1.875694p-1f,
    0x1.8b4122p-1f, 0x1.8f3182p-1f, 0x1.9327b8p-1f, 0x1.9723c8p-1f,
    0x1.9b25b4p-1f, 0x1.9f2d7ep-1f, 0x1.a33b28p-1f, 0x1.a74eb4p-1f,
    0x1.ab6824p-1f, 0x1.af877ep-1f, 0x1.b3accp-1f, 0x1.b7d7fp-1f,
    0x1.bc090ep-1f, 0x1.c0401ep-1f, 0x1.c47d22p-1f, 0x1.c8c01ep-1f,
    0x1.cd090cp-1f, 0x1.d157fcp-1f, 0x1.d5ace2p-1f, 0x1.da07dp-1f,
    0x1.de68b6p-1f, 0x1.e2cfaap-1f, 0x1.e73c9ap-1f, 0x1.ebaf9ep-1f,
    0x1.f028a4p-1f, 0x1.f4a7cp-1f, 0x1.f92ce2p-1f, 0x1.fdb822p-1f,
};
// clang-format on

static float clp_srgb8_to_linear(uint v) {
  return clp_srgb8_to_linear_table[v & 0xffu];
}

// Linear float -> 8-bit sRGB code. NaN fails every comparison and gives 0, like the host;
// negatives give 0 and values >= 1 (and +Inf) give 255.
static uint clp_linear_to_srgb8(float x) {
  uint code = 0u;
  for (uint step = 128u; step != 0u; step >>= 1) {
    code += x >= clp_linear_to_srgb8_threshold[code + step] ? step : 0u;
  }
  return code;
}

// Four lanes at once: the same search, one table read per lane and step.
static uint4 clp_linear4_to_srgb8x4(float4 x) {
  uint4 code = (uint4)(0u);
  for (uint step = 128u; step != 0u; step >>= 1) {
    const uint4 i = code + step;
    const float4 t =
        (float4)(clp_linear_to_srgb8_threshold[i.x], clp_linear_to_srgb8_threshold[i.y],
                 clp_linear_to_srgb8_threshold[i.z], clp_linear_to_srgb8_threshold[i.w]);
    code += x >= t ? (uint4)(step) : (uint4)(0u);
  }
  return code;
}

#endif  // CLPIPE_KERNELS_FORMAT_SRGB_H
