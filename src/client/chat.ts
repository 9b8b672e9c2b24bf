// The chat API (spec "Endpoints › Chat"): conversations, whole and streamed replies, history.
import type { OpenStream, Send } from './http.ts';
import { everyItem, pageBody } from './paging.ts';
import { readCompletionChunks, readUiMessageStream, type CompletionChunk, type UiMessageStream } from './streams.ts';
import type {
  Conversation,
  ConversationStart,
  ConversationStarted,
  IterateOptions,
  Message,
  MessageReply,
  MessageRequest,
  Page,
  PageRequest,
  Pagination,
} from './types.ts';

export interface StreamOptions {
  /** Aborting stops the read and closes the connection; the server then stops the reply. */
  signal?: AbortSignal;
}

export interface ChatClient {
  /** Returns the new conversation's id and the bot's welcome message; 429 carries `details.statusMessage`. */
  startConversation(req?: ConversationStart): Promise<ConversationStarted>;
  /** The whole reply; without `conversationId` a new conversation is created. */
  sendMessage(req: MessageRequest): Promise<MessageReply>;
  /**
   * The reply as 2.0 UI-message chunks, always on the 2.0 path whatever the client's version: the
   * path decides the stream format (spec "Versioning" 3). A refusal (e.g. 429) throws before any chunk.
   */
  streamMessage(req: MessageRequest, opts?: StreamOptions): Promise<UiMessageStream>;
  /** The deprecated 1.0 format, always on the 1.0 path; no conversation id is returned. */
  streamCompletion(req: MessageRequest, opts?: StreamOptions): Promise<AsyncGenerator<CompletionChunk>>;
  listConversations(page?: PageRequest): Promise<Page<Conversation>>;
  iterateConversations(opts?: IterateOptions): AsyncGenerator<Conversation>;
  /** 404 `conversation_not_found` when the conversation is missing or another bot's. */
  listMessages(conversationId: string, page?: PageRequest): Promise<Page<Message>>;
  iterateMessages(conversationId: string, opts?: IterateOptions): AsyncGenerator<Message>;
}

export function chatClient(send: Send, openStream: OpenStream): ChatClient {
  async function listConversations(page: PageRequest = {}): Promise<Page<Conversation>> {
    const res = await send<{ conversations: Conversation[]; pagination: Pagination }>('POST', '/conversations', { body: pageBody(page) });
    return { items: res.conversations, pagination: res.pagination };
  }
  async function listMessages(conversationId: string, page: PageRequest = {}): Promise<Page<Message>> {
    const res = await send<{ messages: Message[]; pagination: Pagination }>('POST', '/messages', { body: { conversationId, ...pageBody(page) } });
    return { items: res.messages, pagination: res.pagination };
  }

  return {
    async startConversation(req = {}) {
      const { conversationId, response } = await send<ConversationStarted>('POST', '/conversation', { body: req });
      return { conversationId, response };
    },
    async sendMessage(req) {
      const { success: _success, ...reply } = await send<MessageReply & { success: true }>('POST', '/message', { body: { ...req, stream: false } });
      return reply;
    },
    async streamMessage(req, opts = {}) {
      return readUiMessageStream(await openStream('/message', { ...req, stream: true }, { version: '2.0', signal: opts.signal }));
    },
    async streamCompletion(req, opts = {}) {
      return readCompletionChunks(await openStream('/message', { ...req, stream: true }, { version: '1.0', signal: opts.signal }));
    },
    listConversations,
    iterateConversations: (opts) => everyItem(listConversations, opts),
    listMessages,
    iterateMessages: (conversationId, opts) => everyItem((page) => listMessages(conversationId, page), opts),
  };
}
