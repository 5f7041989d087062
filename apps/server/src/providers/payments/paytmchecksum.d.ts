/** Paytm's official checksum library (https://github.com/paytm/Paytm_Node_Checksum) ships no types: what this app calls of it. */
declare module 'paytmchecksum' {
  const PaytmChecksum: {
    /** The signature of a JSON body string (or of form parameters, joined as Paytm documents), with the merchant key. */
    generateSignature(params: string | Record<string, string>, key: string): Promise<string>;
    /** True when `checksum` signs these parameters (a JSON string, or form parameters without CHECKSUMHASH) with the merchant key. */
    verifySignature(params: string | Record<string, string>, key: string, checksum: string): boolean;
  };
  export default PaytmChecksum;
}
