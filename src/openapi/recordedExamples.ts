// Written by test/openapi/examples.test.ts with OPENAPI_RECORD=1; do not edit by hand. Real requests
// and answers of every operation, which the same test checks the API still gives.
import type { RecordedExamples } from './exchange.ts';

export const RECORDED_EXAMPLES: RecordedExamples = {
  "get /healthz": [
    {
      "summary": "The process answers",
      "status": 200,
      "response": {
        "success": true,
        "status": "ok"
      }
    }
  ],
  "get /readyz": [
    {
      "summary": "Ready",
      "status": 200,
      "response": {
        "success": true,
        "checks": {
          "database": true,
          "scheduler": true
        }
      }
    }
  ],
  "post /api/admin/bootstrap": [
    {
      "summary": "A team, a bot and a channel",
      "status": 201,
      "request": {
        "body": {
          "team": "Acme",
          "bot": "Support"
        }
      },
      "response": {
        "success": true,
        "teamId": "3f805c30-ffa8-4009-aa59-7674aa8f5b71",
        "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
        "channelId": "1b789ad5-f848-48d5-867d-013b4fb66ca0",
        "secretKey": "sk_EXAMPLEchannelKey00000000000000000000000000"
      }
    },
    {
      "summary": "The team name exists",
      "status": 409,
      "response": {
        "success": false,
        "code": "conflict",
        "message": "A team named \"Acme\" already exists (3f805c30-ffa8-4009-aa59-7674aa8f5b71): bootstrap has run before. Its channel key is shown only once; list its channels and rotate one for a new key, or bootstrap with another team name",
        "teamId": "3f805c30-ffa8-4009-aa59-7674aa8f5b71"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "Broken JSON",
      "status": 400,
      "response": {
        "success": false,
        "code": "invalid_json",
        "message": "Request body is not valid JSON"
      }
    }
  ],
  "post /api/admin/teams": [
    {
      "summary": "A team on the pro plan",
      "status": 201,
      "request": {
        "body": {
          "name": "Globex",
          "plan": "pro"
        }
      },
      "response": {
        "success": true,
        "team": {
          "id": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Globex",
          "plan": "pro",
          "limits": {
            "dataSourcesPerBot": 25,
            "storageTokens": 10000000,
            "chatTokens": 10000000,
            "maxMessageLength": 4000
          },
          "usage": {
            "storageTokens": 0,
            "chatTokens": 0
          },
          "createdAt": "2026-12-05T00:19:49.560Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "name: Invalid input: expected string, received undefined"
      }
    }
  ],
  "get /api/admin/teams": [
    {
      "summary": "Every team",
      "status": 200,
      "response": {
        "success": true,
        "teams": [
          {
            "id": "3f805c30-ffa8-4009-aa59-7674aa8f5b71",
            "name": "Acme",
            "plan": "standard",
            "limits": {
              "dataSourcesPerBot": 5,
              "storageTokens": 1000000,
              "chatTokens": 1000000,
              "maxMessageLength": 2000
            },
            "usage": {
              "storageTokens": 0,
              "chatTokens": 0
            },
            "createdAt": "2026-12-05T00:19:49.407Z"
          },
          {
            "id": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
            "name": "Globex",
            "plan": "pro",
            "limits": {
              "dataSourcesPerBot": 25,
              "storageTokens": 10000000,
              "chatTokens": 10000000,
              "maxMessageLength": 4000
            },
            "usage": {
              "storageTokens": 0,
              "chatTokens": 0
            },
            "createdAt": "2026-12-05T00:19:49.560Z"
          }
        ]
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    }
  ],
  "get /api/admin/teams/{teamId}": [
    {
      "summary": "A team",
      "status": 200,
      "response": {
        "success": true,
        "team": {
          "id": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Globex",
          "plan": "pro",
          "limits": {
            "dataSourcesPerBot": 25,
            "storageTokens": 10000000,
            "chatTokens": 10000000,
            "maxMessageLength": 4000
          },
          "usage": {
            "storageTokens": 0,
            "chatTokens": 0
          },
          "createdAt": "2026-12-05T00:19:49.560Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "team_not_found",
        "message": "Team not found"
      }
    }
  ],
  "put /api/admin/teams/{teamId}/plan": [
    {
      "summary": "Enterprise, with a chat token limit",
      "status": 200,
      "request": {
        "body": {
          "plan": "enterprise",
          "limits": {
            "chatTokens": 500000
          }
        }
      },
      "response": {
        "success": true,
        "team": {
          "id": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Globex",
          "plan": "enterprise",
          "limits": {
            "dataSourcesPerBot": 200,
            "storageTokens": 100000000,
            "chatTokens": 500000,
            "maxMessageLength": 8000
          },
          "usage": {
            "storageTokens": 0,
            "chatTokens": 0
          },
          "createdAt": "2026-12-05T00:19:49.560Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "team_not_found",
        "message": "Team not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "plan: Invalid option: expected one of \"standard\"|\"pro\"|\"enterprise\""
      }
    }
  ],
  "post /api/admin/bots": [
    {
      "summary": "A bot",
      "status": 201,
      "request": {
        "body": {
          "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Helper",
          "welcomeMessage": "Hello! How can I help?"
        }
      },
      "response": {
        "success": true,
        "bot": {
          "id": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
          "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": null,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-05T00:19:49.611Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "team_not_found",
        "message": "Team not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "teamId: Invalid input: expected string, received undefined"
      }
    }
  ],
  "get /api/admin/bots": [
    {
      "summary": "A team's bots",
      "status": 200,
      "request": {
        "query": {
          "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8"
        }
      },
      "response": {
        "success": true,
        "bots": [
          {
            "id": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
            "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
            "name": "Helper",
            "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
            "welcomeMessage": "Hello! How can I help?",
            "maxMessageLength": null,
            "powerUps": [
              "human-handoff"
            ],
            "createdAt": "2026-12-05T00:19:49.611Z"
          }
        ]
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    }
  ],
  "get /api/admin/bots/{botId}": [
    {
      "summary": "A bot",
      "status": 200,
      "response": {
        "success": true,
        "bot": {
          "id": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
          "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": null,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-05T00:19:49.611Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "bot_not_found",
        "message": "Bot not found"
      }
    }
  ],
  "patch /api/admin/bots/{botId}": [
    {
      "summary": "A shorter message limit",
      "status": 200,
      "request": {
        "body": {
          "maxMessageLength": 500
        }
      },
      "response": {
        "success": true,
        "bot": {
          "id": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
          "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": 500,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-05T00:19:49.611Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "bot_not_found",
        "message": "Bot not found"
      }
    },
    {
      "summary": "Broken JSON",
      "status": 400,
      "response": {
        "success": false,
        "code": "invalid_json",
        "message": "Request body is not valid JSON"
      }
    }
  ],
  "post /api/admin/channels": [
    {
      "summary": "A channel and its key",
      "status": 201,
      "request": {
        "body": {
          "botId": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
          "name": "Website"
        }
      },
      "response": {
        "success": true,
        "channel": {
          "channelId": "b41deb27-80b6-42b7-a7ed-e1a09ff689c6",
          "botId": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
          "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Website",
          "enabled": true,
          "createdAt": "2026-12-05T00:19:49.647Z"
        },
        "secretKey": "sk_EXAMPLEchannelKey00000000000000000000000000"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "bot_not_found",
        "message": "Bot not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: Invalid input: expected string, received undefined"
      }
    }
  ],
  "get /api/admin/channels": [
    {
      "summary": "A bot's channels",
      "status": 200,
      "request": {
        "query": {
          "botId": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c"
        }
      },
      "response": {
        "success": true,
        "channels": [
          {
            "channelId": "b41deb27-80b6-42b7-a7ed-e1a09ff689c6",
            "botId": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
            "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
            "name": "Website",
            "enabled": true,
            "createdAt": "2026-12-05T00:19:49.647Z"
          }
        ]
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    }
  ],
  "post /api/admin/channels/{channelId}/rotate": [
    {
      "summary": "A new key",
      "status": 200,
      "response": {
        "success": true,
        "channel": {
          "channelId": "b41deb27-80b6-42b7-a7ed-e1a09ff689c6",
          "botId": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
          "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Website",
          "enabled": true,
          "createdAt": "2026-12-05T00:19:49.647Z"
        },
        "secretKey": "sk_EXAMPLEchannelKey00000000000000000000000000"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "Broken JSON",
      "status": 400,
      "response": {
        "success": false,
        "code": "invalid_json",
        "message": "Request body is not valid JSON"
      }
    }
  ],
  "put /api/admin/channels/{channelId}/enabled": [
    {
      "summary": "Turned off",
      "status": 200,
      "request": {
        "body": {
          "enabled": false
        }
      },
      "response": {
        "success": true,
        "channel": {
          "channelId": "b41deb27-80b6-42b7-a7ed-e1a09ff689c6",
          "botId": "22fe3f74-77f7-40ee-b14c-5b7211d7b27c",
          "teamId": "57c9d0cf-37aa-4a76-9160-91b9d20f7de8",
          "name": "Website",
          "enabled": false,
          "createdAt": "2026-12-05T00:19:49.647Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "enabled: Invalid input: expected boolean, received undefined"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/data-sources": [
    {
      "summary": "An empty manual data source",
      "status": 200,
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-05T00:19:49.691Z"
        }
      }
    },
    {
      "summary": "The plan allows no more",
      "status": 429,
      "response": {
        "success": false,
        "code": "data_source_limit_reached",
        "message": "The plan allows 1 data sources per bot"
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "Broken JSON",
      "status": 400,
      "response": {
        "success": false,
        "code": "invalid_json",
        "message": "Request body is not valid JSON"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/data-sources/list": [
    {
      "summary": "The first page",
      "status": 200,
      "request": {
        "body": {
          "limit": 10
        }
      },
      "response": {
        "success": true,
        "dataSources": [
          {
            "id": "01a24392-473b-7000-8af0-5da1b9a8e33e",
            "type": "MANUAL",
            "state": "not_synced",
            "lastSync": null,
            "syncInterval": null,
            "createdAt": "2026-12-05T00:19:49.691Z"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24392-473b-7000-8af0-5da1b9a8e33e"
        }
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "A limit out of range",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "limit: limit must be an integer from 1 to 100"
      }
    }
  ],
  "get /api/public/channels/{channelId}/{version}/data-sources": [
    {
      "summary": "A data source",
      "status": 200,
      "request": {
        "query": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e"
        }
      },
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-05T00:19:49.691Z"
        }
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required parameter missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "put /api/public/channels/{channelId}/{version}/data-sources": [
    {
      "summary": "Weekly syncs",
      "status": 200,
      "request": {
        "body": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "syncInterval": "week"
        }
      },
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-05T00:19:49.691Z"
        }
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/data-sources/row": [
    {
      "summary": "One row",
      "status": 200,
      "request": {
        "body": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "dataSourceRows": [
            {
              "name": "returns.md",
              "content": "# Returns\n\nItems can be returned within 30 days of delivery, in their original packaging."
            }
          ]
        }
      },
      "response": {
        "success": true
      }
    },
    {
      "summary": "Not JSON",
      "status": 415,
      "response": {
        "success": false,
        "code": "unsupported_media_type",
        "message": "Content-Type must be application/json"
      }
    },
    {
      "summary": "Larger than BODY_LIMIT",
      "status": 413,
      "response": {
        "success": false,
        "code": "payload_too_large",
        "message": "Request body is too large"
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/data-sources/row/list": [
    {
      "summary": "The first page",
      "status": 200,
      "request": {
        "body": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "limit": 10
        }
      },
      "response": {
        "success": true,
        "dataSourceRows": [
          {
            "id": "01a24392-476d-7000-85a7-993a39654c58",
            "name": "returns.md"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24392-476d-7000-85a7-993a39654c58"
        }
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "get /api/public/channels/{channelId}/{version}/data-sources/row": [
    {
      "summary": "A row with its content",
      "status": 200,
      "request": {
        "query": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "dataSourceRowId": "01a24392-476d-7000-85a7-993a39654c58"
        }
      },
      "response": {
        "success": true,
        "dataSourceRow": {
          "id": "01a24392-476d-7000-85a7-993a39654c58",
          "name": "returns.md",
          "content": "# Returns\n\nItems can be returned within 30 days of delivery, in their original packaging.",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "lastModified": "2026-12-05T00:19:49.741Z",
          "createdAt": "2026-12-05T00:19:49.741Z"
        }
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required parameter missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "put /api/public/channels/{channelId}/{version}/data-sources/row": [
    {
      "summary": "New content",
      "status": 200,
      "request": {
        "body": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "dataSourceRows": [
            {
              "id": "01a24392-476d-7000-85a7-993a39654c58",
              "name": "returns.md",
              "content": "# Returns\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days."
            }
          ]
        }
      },
      "response": {
        "success": true
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/data-sources/sync": [
    {
      "summary": "Sync started",
      "status": 200,
      "request": {
        "body": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e"
        }
      },
      "response": {
        "success": true
      }
    },
    {
      "summary": "No storage tokens left",
      "status": 429,
      "response": {
        "success": false,
        "code": "storage_tokens_exhausted",
        "message": "The team has no storage tokens left"
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "get /api/admin/bots/{botId}/data-sources": [
    {
      "summary": "A bot's data sources",
      "status": 200,
      "response": {
        "success": true,
        "dataSources": [
          {
            "id": "01a24392-473b-7000-8af0-5da1b9a8e33e",
            "type": "MANUAL",
            "state": "synced",
            "lastSync": "2026-12-05T00:19:50.127Z",
            "syncInterval": "week",
            "createdAt": "2026-12-05T00:19:49.691Z",
            "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
            "name": "Data source 1",
            "lastError": null,
            "lastResults": {
              "totalTokens": 32,
              "modifiedRows": 1,
              "totalDocuments": 1,
              "unmodifiedRows": 0,
              "totalDataSourceRows": 1
            }
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24392-473b-7000-8af0-5da1b9a8e33e"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "get /api/admin/bots/{botId}/data-sources/{dataSourceId}": [
    {
      "summary": "A synced data source",
      "status": 200,
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "type": "MANUAL",
          "state": "synced",
          "lastSync": "2026-12-05T00:19:50.127Z",
          "syncInterval": "week",
          "createdAt": "2026-12-05T00:19:49.691Z",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "name": "Data source 1",
          "lastError": null,
          "lastResults": {
            "totalTokens": 32,
            "modifiedRows": 1,
            "totalDocuments": 1,
            "unmodifiedRows": 0,
            "totalDataSourceRows": 1
          }
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "patch /api/admin/bots/{botId}/data-sources/{dataSourceId}": [
    {
      "summary": "Named",
      "status": 200,
      "request": {
        "body": {
          "name": "Returns policy"
        }
      },
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "type": "MANUAL",
          "state": "synced",
          "lastSync": "2026-12-05T00:19:50.127Z",
          "syncInterval": "week",
          "createdAt": "2026-12-05T00:19:49.691Z",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "name": "Returns policy",
          "lastError": null,
          "lastResults": {
            "totalTokens": 32,
            "modifiedRows": 1,
            "totalDocuments": 1,
            "unmodifiedRows": 0,
            "totalDataSourceRows": 1
          }
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "post /api/admin/bots/{botId}/data-sources/{dataSourceId}/sync-hooks": [
    {
      "summary": "A hook and its URL",
      "status": 201,
      "response": {
        "success": true,
        "hook": {
          "id": "dd355d06-d424-4839-98ad-7a5a6380d1e8",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "enabled": false,
          "createdAt": "2026-12-05T00:19:50.436Z",
          "updatedAt": "2026-12-05T00:19:50.436Z"
        },
        "secret": "3aQSyuZyVtiAcVNvMp1pYXVwefKVRJJbXGwMD7HK5AE",
        "url": "http://localhost:3000/api/public/hooks/dd355d06-d424-4839-98ad-7a5a6380d1e8/3aQSyuZyVtiAcVNvMp1pYXVwefKVRJJbXGwMD7HK5AE"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "get /api/admin/bots/{botId}/sync-hooks": [
    {
      "summary": "A bot's hooks",
      "status": 200,
      "response": {
        "success": true,
        "hooks": [
          {
            "id": "dd355d06-d424-4839-98ad-7a5a6380d1e8",
            "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
            "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
            "enabled": false,
            "createdAt": "2026-12-05T00:19:50.436Z",
            "updatedAt": "2026-12-05T00:19:50.436Z"
          }
        ]
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "get /api/admin/bots/{botId}/sync-hooks/{hookId}": [
    {
      "summary": "A hook",
      "status": 200,
      "response": {
        "success": true,
        "hook": {
          "id": "dd355d06-d424-4839-98ad-7a5a6380d1e8",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "enabled": false,
          "createdAt": "2026-12-05T00:19:50.436Z",
          "updatedAt": "2026-12-05T00:19:50.436Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "hook_not_found",
        "message": "Sync hook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "put /api/admin/bots/{botId}/sync-hooks/{hookId}/enabled": [
    {
      "summary": "Turned off",
      "status": 200,
      "request": {
        "body": {
          "enabled": false
        }
      },
      "response": {
        "success": true,
        "hook": {
          "id": "dd355d06-d424-4839-98ad-7a5a6380d1e8",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "enabled": false,
          "createdAt": "2026-12-05T00:19:50.436Z",
          "updatedAt": "2026-12-05T00:19:50.457Z"
        }
      }
    },
    {
      "summary": "Turned on",
      "status": 200,
      "request": {
        "body": {
          "enabled": true
        }
      },
      "response": {
        "success": true,
        "hook": {
          "id": "dd355d06-d424-4839-98ad-7a5a6380d1e8",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "enabled": true,
          "createdAt": "2026-12-05T00:19:50.436Z",
          "updatedAt": "2026-12-05T00:19:50.576Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "hook_not_found",
        "message": "Sync hook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "post /api/public/hooks/{hookId}/{secret}": [
    {
      "summary": "The hook is off",
      "status": 403,
      "response": {
        "success": false,
        "code": "hook_disabled",
        "message": "This sync hook is disabled"
      }
    },
    {
      "summary": "Sync started",
      "status": 200,
      "response": {
        "success": true
      }
    },
    {
      "summary": "Unknown hook or wrong secret",
      "status": 404,
      "response": {
        "success": false,
        "code": "hook_not_found",
        "message": "Sync hook not found"
      }
    },
    {
      "summary": "No storage tokens left",
      "status": 429,
      "response": {
        "success": false,
        "code": "storage_tokens_exhausted",
        "message": "The team has no storage tokens left"
      }
    }
  ],
  "post /api/admin/bots/{botId}/sync-hooks/{hookId}/secret": [
    {
      "summary": "A new secret and URL",
      "status": 200,
      "response": {
        "success": true,
        "hook": {
          "id": "dd355d06-d424-4839-98ad-7a5a6380d1e8",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "enabled": true,
          "createdAt": "2026-12-05T00:19:50.436Z",
          "updatedAt": "2026-12-05T00:19:50.796Z"
        },
        "secret": "VPOzxyuSnKmGBHBesGRu-aTYy4JN94KowJJUP4ohhPo",
        "url": "http://localhost:3000/api/public/hooks/dd355d06-d424-4839-98ad-7a5a6380d1e8/VPOzxyuSnKmGBHBesGRu-aTYy4JN94KowJJUP4ohhPo"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "hook_not_found",
        "message": "Sync hook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "delete /api/admin/bots/{botId}/sync-hooks/{hookId}": [
    {
      "summary": "Deleted",
      "status": 200,
      "response": {
        "success": true
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "hook_not_found",
        "message": "Sync hook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "post /api/admin/bots/{botId}/webhooks": [
    {
      "summary": "A hook (off until turned on)",
      "status": 201,
      "request": {
        "body": {
          "type": "conversation.started",
          "url": "http://127.0.0.1:33737/hooks/relay"
        }
      },
      "response": {
        "success": true,
        "webhook": {
          "id": "01a24392-4be3-7000-a432-d4662f0c81cb",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:33737/hooks/relay",
          "dataSourceIds": [],
          "customPayload": {
            "enabled": false,
            "method": "POST",
            "headers": {},
            "body": ""
          },
          "standardWebhooks": false,
          "retryDelaysSeconds": null,
          "concurrency": null,
          "ratePerSecond": null,
          "failingSince": null,
          "disabledAt": null,
          "disabledReason": null,
          "createdAt": "2026-12-05T00:19:50.890Z",
          "updatedAt": "2026-12-05T00:19:50.890Z"
        },
        "secret": "whsec_EXAMPLEsigningSecret000000000000000000000000"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "bot_not_found",
        "message": "Bot not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "get /api/admin/bots/{botId}/webhooks": [
    {
      "summary": "A bot's hooks",
      "status": 200,
      "request": {
        "query": {
          "limit": "10"
        }
      },
      "response": {
        "success": true,
        "webhooks": [
          {
            "id": "01a24392-4be3-7000-a432-d4662f0c81cb",
            "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
            "type": "conversation.started",
            "enabled": false,
            "url": "http://127.0.0.1:33737/hooks/relay",
            "dataSourceIds": [],
            "customPayload": {
              "enabled": false,
              "method": "POST",
              "headers": {},
              "body": ""
            },
            "standardWebhooks": false,
            "retryDelaysSeconds": null,
            "concurrency": null,
            "ratePerSecond": null,
            "failingSince": null,
            "disabledAt": null,
            "disabledReason": null,
            "createdAt": "2026-12-05T00:19:50.890Z",
            "updatedAt": "2026-12-05T00:19:50.890Z"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24392-4be3-7000-a432-d4662f0c81cb"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "bot_not_found",
        "message": "Bot not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "get /api/admin/bots/{botId}/webhooks/{webhookId}": [
    {
      "summary": "A hook",
      "status": 200,
      "response": {
        "success": true,
        "webhook": {
          "id": "01a24392-4be3-7000-a432-d4662f0c81cb",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:33737/hooks/relay",
          "dataSourceIds": [],
          "customPayload": {
            "enabled": false,
            "method": "POST",
            "headers": {},
            "body": ""
          },
          "standardWebhooks": false,
          "retryDelaysSeconds": null,
          "concurrency": null,
          "ratePerSecond": null,
          "failingSince": null,
          "disabledAt": null,
          "disabledReason": null,
          "createdAt": "2026-12-05T00:19:50.890Z",
          "updatedAt": "2026-12-05T00:19:50.890Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "patch /api/admin/bots/{botId}/webhooks/{webhookId}": [
    {
      "summary": "Its own retry schedule and lane",
      "status": 200,
      "request": {
        "body": {
          "retryDelaysSeconds": [
            10,
            60,
            600
          ],
          "concurrency": 2,
          "ratePerSecond": 5
        }
      },
      "response": {
        "success": true,
        "webhook": {
          "id": "01a24392-4be3-7000-a432-d4662f0c81cb",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:33737/hooks/relay",
          "dataSourceIds": [],
          "customPayload": {
            "enabled": false,
            "method": "POST",
            "headers": {},
            "body": ""
          },
          "standardWebhooks": false,
          "retryDelaysSeconds": [
            10,
            60,
            600
          ],
          "concurrency": 2,
          "ratePerSecond": 5,
          "failingSince": null,
          "disabledAt": null,
          "disabledReason": null,
          "createdAt": "2026-12-05T00:19:50.890Z",
          "updatedAt": "2026-12-05T00:19:51.023Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "put /api/admin/bots/{botId}/webhooks/{webhookId}/enabled": [
    {
      "summary": "Turned on",
      "status": 200,
      "request": {
        "body": {
          "enabled": true
        }
      },
      "response": {
        "success": true,
        "webhook": {
          "id": "01a24392-4be3-7000-a432-d4662f0c81cb",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "type": "conversation.started",
          "enabled": true,
          "url": "http://127.0.0.1:33737/hooks/relay",
          "dataSourceIds": [],
          "customPayload": {
            "enabled": false,
            "method": "POST",
            "headers": {},
            "body": ""
          },
          "standardWebhooks": false,
          "retryDelaysSeconds": [
            10,
            60,
            600
          ],
          "concurrency": 2,
          "ratePerSecond": 5,
          "failingSince": null,
          "disabledAt": null,
          "disabledReason": null,
          "createdAt": "2026-12-05T00:19:50.890Z",
          "updatedAt": "2026-12-05T00:19:51.091Z"
        },
        "resent": 0
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "post /api/admin/bots/{botId}/webhooks/{webhookId}/secret": [
    {
      "summary": "A new secret",
      "status": 200,
      "response": {
        "success": true,
        "webhook": {
          "id": "01a24392-4be3-7000-a432-d4662f0c81cb",
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "type": "conversation.started",
          "enabled": true,
          "url": "http://127.0.0.1:33737/hooks/relay",
          "dataSourceIds": [],
          "customPayload": {
            "enabled": false,
            "method": "POST",
            "headers": {},
            "body": ""
          },
          "standardWebhooks": false,
          "retryDelaysSeconds": [
            10,
            60,
            600
          ],
          "concurrency": 2,
          "ratePerSecond": 5,
          "failingSince": null,
          "disabledAt": null,
          "disabledReason": null,
          "createdAt": "2026-12-05T00:19:50.890Z",
          "updatedAt": "2026-12-05T00:19:51.100Z"
        },
        "secret": "whsec_EXAMPLEsigningSecret000000000000000000000000"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "post /api/admin/bots/{botId}/webhooks/{webhookId}/test": [
    {
      "summary": "The receiver answered",
      "status": 200,
      "response": {
        "success": true,
        "test": {
          "deliveryId": "5c6501c0-f602-41e1-885a-d53bff6b195f",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:33737/hooks/relay"
          },
          "status": 200,
          "body": "{\"ok\":true}",
          "bodyTruncated": false,
          "durationMs": 86,
          "unresolved": [],
          "error": null
        }
      }
    },
    {
      "summary": "The receiver could not be reached",
      "status": 200,
      "response": {
        "success": true,
        "test": {
          "deliveryId": "3a530221-c010-44d7-8192-1b0cdc60bdb8",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:34653/hook"
          },
          "status": null,
          "body": "",
          "bodyTruncated": false,
          "durationMs": 3,
          "unresolved": [],
          "error": {
            "code": "network",
            "message": "connect ECONNREFUSED 127.0.0.1:34653"
          }
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/conversation": [
    {
      "summary": "A conversation and the welcome message",
      "status": 200,
      "request": {
        "headers": {
          "Idempotency-Key": "order-4711-chat"
        },
        "body": {}
      },
      "response": {
        "success": true,
        "conversationId": "01a24392-4d93-7000-8160-5663061ba197",
        "response": "Hello! How can I help you today?"
      }
    },
    {
      "summary": "The key was used for another request",
      "status": 422,
      "response": {
        "success": false,
        "code": "idempotency_key_reused",
        "message": "This Idempotency-Key was used with another request; use a new key for a new request"
      }
    },
    {
      "summary": "No chat tokens left",
      "status": 429,
      "response": {
        "success": false,
        "code": "token_limit_reached",
        "message": "The team's chat token limit has been reached",
        "statusMessage": "Token limit reached"
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "Broken JSON",
      "status": 400,
      "response": {
        "success": false,
        "code": "invalid_json",
        "message": "Request body is not valid JSON"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/message": [
    {
      "summary": "A whole reply with its sources",
      "status": 200,
      "request": {
        "body": {
          "conversationId": "01a24392-4d93-7000-8160-5663061ba197",
          "message": "How long do I have to return an item?"
        }
      },
      "response": {
        "success": true,
        "conversationId": "01a24392-4d93-7000-8160-5663061ba197",
        "response": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
        "sources": [
          {
            "rowId": "01a24392-476d-7000-85a7-993a39654c58",
            "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e"
          }
        ]
      }
    },
    {
      "summary": "No message",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "message: message is required and must be a string"
      }
    },
    {
      "summary": "Longer than the bot allows",
      "status": 429,
      "response": {
        "success": false,
        "code": "message_too_long",
        "message": "The message is longer than the bot's maximum message length (20 characters)",
        "maxMessageLength": 20
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "conversation_not_found",
        "message": "Conversation not found"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/conversations": [
    {
      "summary": "The first page",
      "status": 200,
      "request": {
        "body": {
          "limit": 10
        }
      },
      "response": {
        "success": true,
        "conversations": [
          {
            "id": "01a24392-4d93-7000-8160-5663061ba197",
            "createdAt": "2026-12-05T00:19:51.319Z",
            "initialMessage": null
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24392-4d93-7000-8160-5663061ba197"
        }
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "A limit out of range",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "limit: limit must be an integer from 1 to 100"
      }
    }
  ],
  "post /api/public/channels/{channelId}/{version}/messages": [
    {
      "summary": "The first page",
      "status": 200,
      "request": {
        "body": {
          "conversationId": "01a24392-4d93-7000-8160-5663061ba197",
          "limit": 10
        }
      },
      "response": {
        "success": true,
        "messages": [
          {
            "id": "9075ddc2-0308-49b3-9c90-be3a4ae98c16",
            "message": "Hello! How can I help you today?",
            "role": "assistant",
            "createdAt": "2026-12-05T00:19:51.341Z"
          },
          {
            "id": "89f5553d-cadd-4750-9e43-0892f86c5d5a",
            "message": "How long do I have to return an item?",
            "role": "user",
            "createdAt": "2026-12-05T00:19:51.593Z"
          },
          {
            "id": "f7ca263d-e160-4c49-b9e5-0d10577fbae7",
            "message": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
            "role": "assistant",
            "createdAt": "2026-12-05T00:19:51.593Z"
          }
        ],
        "pagination": {
          "total": 3,
          "last": "f7ca263d-e160-4c49-b9e5-0d10577fbae7"
        }
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "conversation_not_found",
        "message": "Conversation not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "conversationId: conversationId is required and must be a string"
      }
    }
  ],
  "get /api/admin/bots/{botId}/conversations": [
    {
      "summary": "Open conversations",
      "status": 200,
      "request": {
        "query": {
          "state": "Open",
          "limit": "10"
        }
      },
      "response": {
        "success": true,
        "conversations": [
          {
            "id": "01a24392-4d93-7000-8160-5663061ba197",
            "createdAt": "2026-12-05T00:19:51.319Z",
            "initialMessage": null,
            "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
            "state": "Open",
            "userData": {},
            "userEmail": null,
            "agent": null
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24392-4d93-7000-8160-5663061ba197"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "bot_not_found",
        "message": "Bot not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "post /api/admin/conversations/{conversationId}/messages": [
    {
      "summary": "Not claimed yet",
      "status": 409,
      "response": {
        "success": false,
        "code": "conflict",
        "message": "Claim the conversation before replying"
      }
    },
    {
      "summary": "An agent reply",
      "status": 201,
      "request": {
        "body": {
          "message": "Ana here: I can help with your return."
        }
      },
      "response": {
        "success": true,
        "message": {
          "id": "33d8ca16-7756-41fe-a55f-4453f296e788",
          "message": "Ana here: I can help with your return.",
          "role": "agent",
          "createdAt": "2026-12-05T00:19:52.459Z",
          "agent": {
            "name": "Ana",
            "email": "ana@example.com"
          }
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "conversation_not_found",
        "message": "Conversation not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "conversationId: conversationId must be a valid UUID"
      }
    }
  ],
  "post /api/admin/conversations/{conversationId}/claim": [
    {
      "summary": "Claimed",
      "status": 200,
      "request": {
        "body": {
          "agent": {
            "name": "Ana",
            "email": "ana@example.com"
          }
        }
      },
      "response": {
        "success": true,
        "conversation": {
          "id": "01a24392-4d93-7000-8160-5663061ba197",
          "createdAt": "2026-12-05T00:19:51.319Z",
          "initialMessage": null,
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "state": "Active",
          "userData": {},
          "userEmail": null,
          "agent": {
            "name": "Ana",
            "email": "ana@example.com"
          }
        }
      }
    },
    {
      "summary": "Already claimed",
      "status": 409,
      "response": {
        "success": false,
        "code": "conflict",
        "message": "The conversation is already claimed by an agent"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "conversation_not_found",
        "message": "Conversation not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "conversationId: conversationId must be a valid UUID"
      }
    }
  ],
  "get /api/admin/conversations/{conversationId}/messages": [
    {
      "summary": "The conversation so far",
      "status": 200,
      "request": {
        "query": {
          "limit": "10"
        }
      },
      "response": {
        "success": true,
        "messages": [
          {
            "id": "9075ddc2-0308-49b3-9c90-be3a4ae98c16",
            "message": "Hello! How can I help you today?",
            "role": "assistant",
            "createdAt": "2026-12-05T00:19:51.341Z"
          },
          {
            "id": "89f5553d-cadd-4750-9e43-0892f86c5d5a",
            "message": "How long do I have to return an item?",
            "role": "user",
            "createdAt": "2026-12-05T00:19:51.593Z"
          },
          {
            "id": "f7ca263d-e160-4c49-b9e5-0d10577fbae7",
            "message": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
            "role": "assistant",
            "createdAt": "2026-12-05T00:19:51.593Z",
            "sources": [
              {
                "rowId": "01a24392-476d-7000-85a7-993a39654c58",
                "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e"
              }
            ]
          },
          {
            "id": "33d8ca16-7756-41fe-a55f-4453f296e788",
            "message": "Ana here: I can help with your return.",
            "role": "agent",
            "createdAt": "2026-12-05T00:19:52.459Z",
            "agent": {
              "name": "Ana",
              "email": "ana@example.com"
            }
          }
        ],
        "pagination": {
          "total": 4,
          "last": "33d8ca16-7756-41fe-a55f-4453f296e788"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "conversation_not_found",
        "message": "Conversation not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "conversationId: conversationId must be a valid UUID"
      }
    }
  ],
  "post /api/admin/conversations/{conversationId}/release": [
    {
      "summary": "Back to the bot",
      "status": 200,
      "response": {
        "success": true,
        "conversation": {
          "id": "01a24392-4d93-7000-8160-5663061ba197",
          "createdAt": "2026-12-05T00:19:51.319Z",
          "initialMessage": null,
          "botId": "e2d38956-3f76-4ebb-80f1-7fc21077c251",
          "state": "Resolved",
          "userData": {},
          "userEmail": null,
          "agent": {
            "name": "Ana",
            "email": "ana@example.com"
          }
        }
      }
    },
    {
      "summary": "Not claimed",
      "status": 409,
      "response": {
        "success": false,
        "code": "conflict",
        "message": "Only a claimed conversation can be released"
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "conversation_not_found",
        "message": "Conversation not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "conversationId: conversationId must be a valid UUID"
      }
    }
  ],
  "get /api/admin/bots/{botId}/webhooks/{webhookId}/deliveries": [
    {
      "summary": "The log",
      "status": 200,
      "request": {
        "query": {
          "limit": "10"
        }
      },
      "response": {
        "success": true,
        "deliveries": [
          {
            "id": "01a24392-4da6-7000-b157-0840b077cdeb",
            "webhookId": "01a24392-4be3-7000-a432-d4662f0c81cb",
            "eventId": "01a24392-4d9b-7000-9e89-f8dc515ce89e",
            "event": "conversation.started",
            "status": "delivered",
            "request": {
              "method": "POST",
              "url": "http://127.0.0.1:33737/hooks/relay",
              "headers": {
                "Content-Type": "application/json"
              },
              "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-05T00:19:51.323Z\",\"conversation\":{\"id\":\"01a24392-4d93-7000-8160-5663061ba197\",\"botId\":\"e2d38956-3f76-4ebb-80f1-7fc21077c251\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-05T00:19:51.319Z\",\"userData\":{}},\"deliveryId\":\"01a24392-4da6-7000-b157-0840b077cdeb\"}"
            },
            "unresolved": [],
            "attemptCount": 1,
            "nextAttemptAt": null,
            "cancelReason": null,
            "error": null,
            "test": false,
            "attempts": [
              {
                "number": 1,
                "status": "succeeded",
                "startedAt": "2026-12-05T00:19:51.335Z",
                "finishedAt": "2026-12-05T00:19:51.349Z",
                "httpStatus": 200,
                "durationMs": 9.5,
                "error": null,
                "responseBody": "{\"ok\":true}",
                "responseTruncated": false
              }
            ],
            "createdAt": "2026-12-05T00:19:51.335Z",
            "finishedAt": "2026-12-05T00:19:51.349Z"
          },
          {
            "id": "5c6501c0-f602-41e1-885a-d53bff6b195f",
            "webhookId": "01a24392-4be3-7000-a432-d4662f0c81cb",
            "eventId": "test:5c6501c0-f602-41e1-885a-d53bff6b195f",
            "event": "conversation.started",
            "status": "delivered",
            "request": {
              "method": "POST",
              "url": "http://127.0.0.1:33737/hooks/relay",
              "headers": {
                "Content-Type": "application/json"
              },
              "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-05T00:19:51.159Z\",\"conversation\":{\"id\":\"47b31b0e-c0f5-45e4-8f41-8094825caa37\",\"botId\":\"e2d38956-3f76-4ebb-80f1-7fc21077c251\",\"botName\":\"Support\",\"channelType\":\"api\",\"initialMessage\":\"Hello, I have a question.\",\"createdAt\":\"2026-12-05T00:19:51.159Z\"},\"deliveryId\":\"5c6501c0-f602-41e1-885a-d53bff6b195f\"}"
            },
            "unresolved": [],
            "attemptCount": 1,
            "nextAttemptAt": null,
            "cancelReason": null,
            "error": null,
            "test": true,
            "attempts": [
              {
                "number": 1,
                "status": "succeeded",
                "startedAt": "2026-12-05T00:19:51.160Z",
                "finishedAt": "2026-12-05T00:19:51.251Z",
                "httpStatus": 200,
                "durationMs": 86,
                "error": null,
                "responseBody": "{\"ok\":true}",
                "responseTruncated": false
              }
            ],
            "createdAt": "2026-12-05T00:19:51.160Z",
            "finishedAt": "2026-12-05T00:19:51.251Z"
          }
        ],
        "pagination": {
          "total": 2,
          "last": "5c6501c0-f602-41e1-885a-d53bff6b195f",
          "totalCapped": false
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "get /api/admin/bots/{botId}/webhooks/{webhookId}/deliveries/{deliveryId}": [
    {
      "summary": "A delivered event",
      "status": 200,
      "response": {
        "success": true,
        "delivery": {
          "id": "01a24392-4da6-7000-b157-0840b077cdeb",
          "webhookId": "01a24392-4be3-7000-a432-d4662f0c81cb",
          "eventId": "01a24392-4d9b-7000-9e89-f8dc515ce89e",
          "event": "conversation.started",
          "status": "delivered",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:33737/hooks/relay",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-05T00:19:51.323Z\",\"conversation\":{\"id\":\"01a24392-4d93-7000-8160-5663061ba197\",\"botId\":\"e2d38956-3f76-4ebb-80f1-7fc21077c251\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-05T00:19:51.319Z\",\"userData\":{}},\"deliveryId\":\"01a24392-4da6-7000-b157-0840b077cdeb\"}"
          },
          "unresolved": [],
          "attemptCount": 1,
          "nextAttemptAt": null,
          "cancelReason": null,
          "error": null,
          "test": false,
          "attempts": [
            {
              "number": 1,
              "status": "succeeded",
              "startedAt": "2026-12-05T00:19:51.335Z",
              "finishedAt": "2026-12-05T00:19:51.349Z",
              "httpStatus": 200,
              "durationMs": 9.5,
              "error": null,
              "responseBody": "{\"ok\":true}",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-05T00:19:51.335Z",
          "finishedAt": "2026-12-05T00:19:51.349Z"
        }
      }
    },
    {
      "summary": "A test send that failed",
      "status": 200,
      "response": {
        "success": true,
        "delivery": {
          "id": "3a530221-c010-44d7-8192-1b0cdc60bdb8",
          "webhookId": "01a24392-4d69-7000-9a41-522ff7a7480a",
          "eventId": "test:3a530221-c010-44d7-8192-1b0cdc60bdb8",
          "event": "sync.success",
          "status": "failed",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:34653/hook",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"success\":true,\"results\":{\"totalTokens\":1200,\"modifiedRows\":2,\"totalDocuments\":10,\"unmodifiedRows\":8,\"totalDataSourceRows\":10},\"bot\":\"Support\",\"dataSource\":\"Sample data source\",\"deliveryId\":\"3a530221-c010-44d7-8192-1b0cdc60bdb8\"}"
          },
          "unresolved": [],
          "attemptCount": 1,
          "nextAttemptAt": null,
          "cancelReason": null,
          "error": null,
          "test": true,
          "attempts": [
            {
              "number": 1,
              "status": "failed",
              "startedAt": "2026-12-05T00:19:51.287Z",
              "finishedAt": "2026-12-05T00:19:51.290Z",
              "httpStatus": null,
              "durationMs": 3,
              "error": {
                "code": "network",
                "message": "connect ECONNREFUSED 127.0.0.1:34653"
              },
              "responseBody": "",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-05T00:19:51.287Z",
          "finishedAt": "2026-12-05T00:19:51.290Z"
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "post /api/admin/bots/{botId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend": [
    {
      "summary": "Sent again",
      "status": 202,
      "response": {
        "success": true,
        "delivery": {
          "id": "01a24392-4da6-7000-b157-0840b077cdeb",
          "webhookId": "01a24392-4be3-7000-a432-d4662f0c81cb",
          "eventId": "01a24392-4d9b-7000-9e89-f8dc515ce89e",
          "event": "conversation.started",
          "status": "pending",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:33737/hooks/relay",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-05T00:19:51.323Z\",\"conversation\":{\"id\":\"01a24392-4d93-7000-8160-5663061ba197\",\"botId\":\"e2d38956-3f76-4ebb-80f1-7fc21077c251\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-05T00:19:51.319Z\",\"userData\":{}},\"deliveryId\":\"01a24392-4da6-7000-b157-0840b077cdeb\"}"
          },
          "unresolved": [],
          "attemptCount": 0,
          "nextAttemptAt": "2026-12-05T00:19:52.801Z",
          "cancelReason": null,
          "error": null,
          "test": false,
          "attempts": [
            {
              "number": 1,
              "status": "succeeded",
              "startedAt": "2026-12-05T00:19:51.335Z",
              "finishedAt": "2026-12-05T00:19:51.349Z",
              "httpStatus": 200,
              "durationMs": 9.5,
              "error": null,
              "responseBody": "{\"ok\":true}",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-05T00:19:51.335Z",
          "finishedAt": null
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "delete /api/admin/bots/{botId}/webhooks/{webhookId}": [
    {
      "summary": "Deleted with its log",
      "status": 200,
      "response": {
        "success": true
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "webhook_not_found",
        "message": "Webhook not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "botId: botId must be a valid UUID"
      }
    }
  ],
  "delete /api/public/channels/{channelId}/{version}/data-sources/row": [
    {
      "summary": "One row deleted",
      "status": 200,
      "request": {
        "body": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e",
          "dataSourceRows": [
            {
              "id": "01a24392-476d-7000-85a7-993a39654c58"
            }
          ]
        }
      },
      "response": {
        "success": true
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "delete /api/public/channels/{channelId}/{version}/data-sources": [
    {
      "summary": "Deleted with its rows",
      "status": 200,
      "request": {
        "body": {
          "dataSourceId": "01a24392-473b-7000-8af0-5da1b9a8e33e"
        }
      },
      "response": {
        "success": true
      }
    },
    {
      "summary": "A wrong X-API-Secret-Key",
      "status": 403,
      "response": {
        "success": false,
        "code": "forbidden",
        "message": "The secret key does not match this channel"
      }
    },
    {
      "summary": "No such channel",
      "status": 404,
      "response": {
        "success": false,
        "code": "channel_not_found",
        "message": "Channel not found"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "data_source_not_found",
        "message": "Data source not found"
      }
    },
    {
      "summary": "A required field missing",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "dataSourceId: dataSourceId is required and must be a string"
      }
    }
  ],
  "post /gateway/{source}": [
    {
      "summary": "relay: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "X-Service-Signature": "sha256=128f5b9b20c4e2fdc71fcb4a2afee7da073c4f8998c889e6f84d8d55f721c028",
          "X-Service-Delivery-Id": "a0ac903c-f323-431c-a521-835a76fbaa5a",
          "X-Service-Event": "conversation.started",
          "X-Relay-Signature": "t=1796429993,v1=6d8bf330b1269c8b85aaac60d4dff61671f5c4ca1292f14008c5db03f895f9b2"
        },
        "body": {
          "event": "conversation.started",
          "deliveryId": "a0ac903c-f323-431c-a521-835a76fbaa5a",
          "conversationId": "3436f193-bba0-49b0-b129-6d792ae29234",
          "botId": "c097a8f8-b16c-46ad-a612-68f8902b43be",
          "createdAt": "2026-12-05T00:19:53.169Z"
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "a0ac903c-f323-431c-a521-835a76fbaa5a",
        "id": "01a24392-54db-7000-8f07-135c11fb5e6f"
      }
    },
    {
      "summary": "relay: the same delivery again",
      "status": 200,
      "request": {
        "headers": {
          "X-Service-Signature": "sha256=128f5b9b20c4e2fdc71fcb4a2afee7da073c4f8998c889e6f84d8d55f721c028",
          "X-Service-Delivery-Id": "a0ac903c-f323-431c-a521-835a76fbaa5a",
          "X-Service-Event": "conversation.started",
          "X-Relay-Signature": "t=1796429993,v1=6d8bf330b1269c8b85aaac60d4dff61671f5c4ca1292f14008c5db03f895f9b2"
        },
        "body": {
          "event": "conversation.started",
          "deliveryId": "a0ac903c-f323-431c-a521-835a76fbaa5a",
          "conversationId": "3436f193-bba0-49b0-b129-6d792ae29234",
          "botId": "c097a8f8-b16c-46ad-a612-68f8902b43be",
          "createdAt": "2026-12-05T00:19:53.169Z"
        }
      },
      "response": {
        "success": true,
        "duplicate": true,
        "deliveryId": "a0ac903c-f323-431c-a521-835a76fbaa5a"
      }
    },
    {
      "summary": "standard-webhooks: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "webhook-id": "msg_2a0b7206260a4757be0d24e175018f69",
          "webhook-timestamp": "1796429993",
          "webhook-signature": "v1,YaQleJTSj5RMUmsd6DFn6lMJdPuUWYNmYQN5EbyUULY="
        },
        "body": {
          "type": "invoice.paid",
          "timestamp": "2026-12-05T00:19:53.250Z",
          "data": {
            "invoice": "in_1001",
            "amount": 4250
          }
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "msg_2a0b7206260a4757be0d24e175018f69",
        "id": "01a24392-5560-7000-91c8-98760e987232"
      }
    },
    {
      "summary": "github: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "X-Hub-Signature-256": "sha256=4037861d485c5ed9b5da3d6eb1528b9af63ce4e133ec14859101a10fc9085693",
          "X-GitHub-Delivery": "c2bd8e1e-70cc-402b-9c86-1c03aacef204",
          "X-GitHub-Event": "issues"
        },
        "body": {
          "action": "opened",
          "issue": {
            "number": 7,
            "title": "Checkout fails on Safari"
          },
          "repository": {
            "full_name": "acme/shop"
          }
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "427d58d8-2894-8e2b-bb5c-6013c7887717",
        "id": "01a24392-55b5-7000-b025-f1be2350a844"
      }
    },
    {
      "summary": "github: form-encoded (GitHub default)",
      "status": 202,
      "request": {
        "contentType": "application/x-www-form-urlencoded",
        "headers": {
          "X-Hub-Signature-256": "sha256=b8de88b91908657444e8247dff174917f21c777020b287c5c23fcdeb2d94f36a",
          "X-GitHub-Delivery": "4617d88f-8cad-4dd7-9ad0-bfad2f4a0a80",
          "X-GitHub-Event": "issues"
        },
        "body": "payload=%7B%22action%22%3A%22closed%22%2C%22issue%22%3A%7B%22number%22%3A7%2C%22title%22%3A%22Checkout+fails+on+Safari%22%7D%7D"
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "8080182f-116b-8e08-a75f-e3d4e276fff1",
        "id": "01a24392-55bd-7000-a1aa-0278a478dafa"
      }
    },
    {
      "summary": "stripe: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "Stripe-Signature": "t=1796429993,v1=e58e5cd9c9b2e6c8d390f046c01b263edc66229525f05221f0e6a80770397302"
        },
        "body": {
          "id": "evt_bbc65e1bc4ec4fbcb7bf45f66dc959dd",
          "object": "event",
          "type": "invoice.paid",
          "livemode": false,
          "data": {
            "object": {
              "id": "in_1001",
              "amount_paid": 4250
            }
          }
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "evt_bbc65e1bc4ec4fbcb7bf45f66dc959dd",
        "id": "01a24392-55e2-7000-867b-1a71679b8990"
      }
    },
    {
      "summary": "hmac: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "X-Shop-Signature": "c75e48926fcf9abf05c381ae020224e1d2219716da78c458a8ac7ad9aa549ea1",
          "X-Shop-Topic": "order.shipped"
        },
        "body": {
          "order": {
            "ref": "A-5378ca08",
            "status": "shipped"
          }
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "A-5378ca08",
        "id": "01a24392-55f9-7000-a787-5a31caf7640e"
      }
    },
    {
      "summary": "No such source",
      "status": 404,
      "response": {
        "success": false,
        "code": "not_found",
        "message": "Unknown gateway source"
      }
    },
    {
      "summary": "Not JSON",
      "status": 415,
      "response": {
        "success": false,
        "code": "unsupported_media_type",
        "message": "Content-Type must be application/json, not text/plain"
      }
    },
    {
      "summary": "Larger than the source takes",
      "status": 413,
      "response": {
        "success": false,
        "code": "payload_too_large",
        "message": "Request body is larger than 256 bytes"
      }
    },
    {
      "summary": "A signature that does not match",
      "status": 401,
      "response": {
        "success": false,
        "code": "invalid_signature",
        "message": "X-Service-Signature does not match the body"
      }
    },
    {
      "summary": "A signed time too old",
      "status": 401,
      "response": {
        "success": false,
        "code": "signature_expired",
        "message": "Stripe-Signature t= is more than 300 s from the current time"
      }
    },
    {
      "summary": "No X-GitHub-Delivery",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "X-GitHub-Delivery is missing"
      }
    }
  ],
  "get /api/admin/gateway/deliveries": [
    {
      "summary": "A page of deliveries",
      "status": 200,
      "request": {
        "query": {
          "limit": "3"
        }
      },
      "response": {
        "success": true,
        "deliveries": [
          {
            "id": "01a24392-54db-7000-8f07-135c11fb5e6f",
            "source": "relay",
            "deliveryId": "a0ac903c-f323-431c-a521-835a76fbaa5a",
            "event": "conversation.started",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": true
            },
            "receivedAt": "2026-12-05T00:19:53.179Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-05T00:19:53.508Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-rgCkp6/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-05T00:19:53.492Z",
                "actions": [
                  {
                    "id": "59e10769-6181-8f72-b0ca-01f915e8dc86",
                    "index": 0,
                    "type": "log",
                    "status": "succeeded",
                    "attempts": 1,
                    "error": null,
                    "result": {
                      "message": "relay: conversation.started"
                    },
                    "spec": {
                      "level": "info",
                      "message": "relay: conversation.started"
                    },
                    "createdAt": "2026-12-05T00:19:53.492Z",
                    "finishedAt": "2026-12-05T00:19:53.492Z"
                  }
                ]
              }
            ]
          },
          {
            "id": "01a24392-5560-7000-91c8-98760e987232",
            "source": "svix",
            "deliveryId": "msg_2a0b7206260a4757be0d24e175018f69",
            "event": "invoice.paid",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": false
            },
            "receivedAt": "2026-12-05T00:19:53.313Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-05T00:19:53.508Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-rgCkp6/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-05T00:19:53.492Z",
                "actions": [
                  {
                    "id": "4d34325a-ca94-8407-bd03-7a1f3fbdfeed",
                    "index": 0,
                    "type": "log",
                    "status": "succeeded",
                    "attempts": 1,
                    "error": null,
                    "result": {
                      "message": "svix: invoice.paid"
                    },
                    "spec": {
                      "level": "info",
                      "message": "svix: invoice.paid"
                    },
                    "createdAt": "2026-12-05T00:19:53.492Z",
                    "finishedAt": "2026-12-05T00:19:53.492Z"
                  }
                ]
              }
            ]
          },
          {
            "id": "01a24392-55b5-7000-b025-f1be2350a844",
            "source": "github",
            "deliveryId": "427d58d8-2894-8e2b-bb5c-6013c7887717",
            "event": "issues",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": false,
              "test": false
            },
            "receivedAt": "2026-12-05T00:19:53.397Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-05T00:19:53.508Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-rgCkp6/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-05T00:19:53.492Z",
                "actions": [
                  {
                    "id": "153c222f-a530-8391-a8af-da2b66ebc9a9",
                    "index": 0,
                    "type": "log",
                    "status": "succeeded",
                    "attempts": 1,
                    "error": null,
                    "result": {
                      "message": "github: issues"
                    },
                    "spec": {
                      "level": "info",
                      "message": "github: issues"
                    },
                    "createdAt": "2026-12-05T00:19:53.492Z",
                    "finishedAt": "2026-12-05T00:19:53.492Z"
                  }
                ]
              }
            ]
          }
        ],
        "pagination": {
          "total": 6,
          "last": "01a24392-55b5-7000-b025-f1be2350a844",
          "totalCapped": false
        }
      }
    },
    {
      "summary": "One source's deliveries",
      "status": 200,
      "request": {
        "query": {
          "source": "stripe",
          "limit": "10"
        }
      },
      "response": {
        "success": true,
        "deliveries": [
          {
            "id": "01a24392-55e2-7000-867b-1a71679b8990",
            "source": "stripe",
            "deliveryId": "evt_bbc65e1bc4ec4fbcb7bf45f66dc959dd",
            "event": "invoice.paid",
            "test": true,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": true
            },
            "receivedAt": "2026-12-05T00:19:53.442Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-05T00:19:53.910Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-rgCkp6/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-05T00:19:53.901Z",
                "actions": [
                  {
                    "id": "53250bee-b3a6-815e-84a7-a14593b3967a",
                    "index": 0,
                    "type": "log",
                    "status": "succeeded",
                    "attempts": 1,
                    "error": null,
                    "result": {
                      "message": "stripe: invoice.paid"
                    },
                    "spec": {
                      "level": "info",
                      "message": "stripe: invoice.paid"
                    },
                    "createdAt": "2026-12-05T00:19:53.901Z",
                    "finishedAt": "2026-12-05T00:19:53.901Z"
                  }
                ]
              }
            ]
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24392-55e2-7000-867b-1a71679b8990",
          "totalCapped": false
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "A limit out of range",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "limit: limit must be an integer from 1 to 100"
      }
    }
  ],
  "get /api/admin/gateway/deliveries/{id}": [
    {
      "summary": "A delivery with its body and outcomes",
      "status": 200,
      "response": {
        "success": true,
        "delivery": {
          "id": "01a24392-55e2-7000-867b-1a71679b8990",
          "source": "stripe",
          "deliveryId": "evt_bbc65e1bc4ec4fbcb7bf45f66dc959dd",
          "event": "invoice.paid",
          "test": true,
          "signed": {
            "deliveryId": true,
            "event": true,
            "test": true
          },
          "receivedAt": "2026-12-05T00:19:53.442Z",
          "run": 0,
          "processedRun": 0,
          "processedAt": "2026-12-05T00:19:53.910Z",
          "headers": {
            "stripe-signature": "t=1796429993,v1=e58e5cd9c9b2e6c8d390f046c01b263edc66229525f05221f0e6a80770397302",
            "content-type": "application/json",
            "host": "127.0.0.1:35735",
            "accept-encoding": "gzip, deflate",
            "content-length": "155",
            "connection": "close"
          },
          "body": "{\"id\":\"evt_bbc65e1bc4ec4fbcb7bf45f66dc959dd\",\"object\":\"event\",\"type\":\"invoice.paid\",\"livemode\":false,\"data\":{\"object\":{\"id\":\"in_1001\",\"amount_paid\":4250}}}",
          "rules": [
            {
              "run": 0,
              "rule": "log-everything",
              "file": "/tmp/relay-gateway-rgCkp6/rules/log.json",
              "result": "matched",
              "error": null,
              "evaluatedAt": "2026-12-05T00:19:53.901Z",
              "actions": [
                {
                  "id": "53250bee-b3a6-815e-84a7-a14593b3967a",
                  "index": 0,
                  "type": "log",
                  "status": "succeeded",
                  "attempts": 1,
                  "error": null,
                  "result": {
                    "message": "stripe: invoice.paid"
                  },
                  "spec": {
                    "level": "info",
                    "message": "stripe: invoice.paid"
                  },
                  "createdAt": "2026-12-05T00:19:53.901Z",
                  "finishedAt": "2026-12-05T00:19:53.901Z"
                }
              ]
            }
          ]
        }
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "delivery_not_found",
        "message": "Delivery not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "id: id must be a valid UUID"
      }
    }
  ],
  "post /api/admin/gateway/deliveries/{id}/replay": [
    {
      "summary": "The rules run again",
      "status": 202,
      "response": {
        "success": true,
        "id": "01a24392-54db-7000-8f07-135c11fb5e6f",
        "run": 1
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "No such id",
      "status": 404,
      "response": {
        "success": false,
        "code": "delivery_not_found",
        "message": "Delivery not found"
      }
    },
    {
      "summary": "An id that is not a UUID",
      "status": 400,
      "response": {
        "success": false,
        "code": "validation_failed",
        "message": "id: id must be a valid UUID"
      }
    }
  ],
  "get /api/admin/gateway/sources": [
    {
      "summary": "The configured sources",
      "status": 200,
      "response": {
        "success": true,
        "sources": [
          {
            "name": "relay",
            "scheme": "relay",
            "secrets": 1,
            "toleranceSeconds": 300,
            "allowLegacySecretHeader": false,
            "maxBodyBytes": 1048576,
            "hmac": null,
            "resyncApi": null
          },
          {
            "name": "svix",
            "scheme": "standard-webhooks",
            "secrets": 1,
            "toleranceSeconds": 300,
            "allowLegacySecretHeader": false,
            "maxBodyBytes": 1048576,
            "hmac": null,
            "resyncApi": null
          },
          {
            "name": "github",
            "scheme": "github",
            "secrets": 1,
            "toleranceSeconds": 300,
            "allowLegacySecretHeader": false,
            "maxBodyBytes": 1048576,
            "hmac": null,
            "resyncApi": null
          },
          {
            "name": "stripe",
            "scheme": "stripe",
            "secrets": 1,
            "toleranceSeconds": 300,
            "allowLegacySecretHeader": false,
            "maxBodyBytes": 1048576,
            "hmac": null,
            "resyncApi": null
          },
          {
            "name": "shop",
            "scheme": "hmac",
            "secrets": 1,
            "toleranceSeconds": 300,
            "allowLegacySecretHeader": false,
            "maxBodyBytes": 1048576,
            "hmac": {
              "header": "x-shop-signature",
              "algorithm": "sha256",
              "encoding": "hex",
              "prefix": "",
              "timestampHeader": null,
              "idHeader": null,
              "idPath": "order.ref",
              "eventHeader": "x-shop-topic",
              "eventPath": null
            },
            "resyncApi": null
          },
          {
            "name": "small",
            "scheme": "relay",
            "secrets": 1,
            "toleranceSeconds": 300,
            "allowLegacySecretHeader": false,
            "maxBodyBytes": 256,
            "hmac": null,
            "resyncApi": null
          }
        ],
        "config": {
          "version": "e1c8db43971c",
          "generation": 0,
          "appliedAt": "2026-12-05T00:19:48.434Z",
          "error": null,
          "instance": "vm-2366-c936df"
        },
        "instances": [
          {
            "id": "vm-2366-c936df",
            "role": "all",
            "host": "vm",
            "pid": 2366,
            "startedAt": "2026-12-05T00:19:48.336Z",
            "heartbeatAt": "2026-12-05T00:19:48.462Z",
            "config": {
              "version": "e1c8db43971c",
              "generation": 0,
              "appliedAt": "2026-12-05T00:19:48.434Z",
              "error": null
            }
          }
        ],
        "consistent": true
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    }
  ],
  "get /api/admin/gateway/rules": [
    {
      "summary": "The loaded rules",
      "status": 200,
      "response": {
        "success": true,
        "dir": "/tmp/relay-gateway-rgCkp6/rules",
        "loadedAt": "2026-12-05T00:19:48.422Z",
        "rules": [
          {
            "name": "log-everything",
            "file": "/tmp/relay-gateway-rgCkp6/rules/log.json",
            "enabled": true,
            "sources": [
              "*"
            ],
            "events": [
              "*"
            ],
            "actions": [
              "log"
            ]
          }
        ],
        "errors": [],
        "warnings": []
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    }
  ],
  "post /api/admin/gateway/reload": [
    {
      "summary": "Reloaded",
      "status": 200,
      "response": {
        "success": true,
        "sources": [
          "relay",
          "svix",
          "github",
          "stripe",
          "shop",
          "small"
        ],
        "version": "e1c8db43971c",
        "generation": 1,
        "dir": "/tmp/relay-gateway-rgCkp6/rules",
        "loadedAt": "2026-12-05T00:19:54.227Z",
        "rules": [
          {
            "name": "log-everything",
            "file": "/tmp/relay-gateway-rgCkp6/rules/log.json",
            "enabled": true,
            "sources": [
              "*"
            ],
            "events": [
              "*"
            ],
            "actions": [
              "log"
            ]
          }
        ],
        "errors": [],
        "warnings": []
      }
    },
    {
      "summary": "No admin token",
      "status": 401,
      "response": {
        "success": false,
        "code": "unauthorized",
        "message": "A valid admin token is required"
      }
    },
    {
      "summary": "Broken JSON",
      "status": 400,
      "response": {
        "success": false,
        "code": "invalid_json",
        "message": "Request body is not valid JSON"
      }
    }
  ]
};
