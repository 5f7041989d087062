import { z } from 'zod';
import { chatMessageSchema } from '../booking';

/** Request and response schemas of the chat routes. */

const MAX_CHAT_MESSAGE_LENGTH = 1000;

export const chatMessageInputSchema = z.object({ message: z.string().trim().min(1).max(MAX_CHAT_MESSAGE_LENGTH) });
export type ChatMessageInput = z.output<typeof chatMessageInputSchema>;

export const chatListResponse = z.object({ messages: z.array(chatMessageSchema) });
