// Inputs of the poison-delivery tests (issue 35, W1): a custom body that renders far past every limit.

/** About 100 KB of userData: 50 fields of 2,000 characters, the most the chat API takes. */
export const bigUserData = () => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, String(i % 10).repeat(2000)]));
/** A custom body that repeats the userData 200 times: about 20 MB once rendered. */
export const POISON_BODY = `[${Array.from({ length: 200 }, () => '{{conversation.userData}}').join(',')}]`;

