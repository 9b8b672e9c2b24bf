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
        "teamId": "79fc7bc3-635a-42e0-8c1e-2b029405eff3",
        "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
        "channelId": "4b67c8aa-96ff-4909-98c0-7fcefa9773b9",
        "secretKey": "sk_EXAMPLEchannelKey00000000000000000000000000"
      }
    },
    {
      "summary": "The team name exists",
      "status": 409,
      "response": {
        "success": false,
        "code": "conflict",
        "message": "A team named \"Acme\" already exists (79fc7bc3-635a-42e0-8c1e-2b029405eff3): bootstrap has run before. Its channel key is shown only once; list its channels and rotate one for a new key, or bootstrap with another team name",
        "teamId": "79fc7bc3-635a-42e0-8c1e-2b029405eff3"
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
          "id": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
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
          "createdAt": "2026-12-05T23:54:33.764Z"
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
            "id": "79fc7bc3-635a-42e0-8c1e-2b029405eff3",
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
            "createdAt": "2026-12-05T23:54:33.745Z"
          },
          {
            "id": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
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
            "createdAt": "2026-12-05T23:54:33.764Z"
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
          "id": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
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
          "createdAt": "2026-12-05T23:54:33.764Z"
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
          "id": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
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
          "createdAt": "2026-12-05T23:54:33.764Z"
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
          "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
          "name": "Helper",
          "welcomeMessage": "Hello! How can I help?"
        }
      },
      "response": {
        "success": true,
        "bot": {
          "id": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
          "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": null,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-05T23:54:33.784Z"
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
          "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7"
        }
      },
      "response": {
        "success": true,
        "bots": [
          {
            "id": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
            "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
            "name": "Helper",
            "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
            "welcomeMessage": "Hello! How can I help?",
            "maxMessageLength": null,
            "powerUps": [
              "human-handoff"
            ],
            "createdAt": "2026-12-05T23:54:33.784Z"
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
          "id": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
          "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": null,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-05T23:54:33.784Z"
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
          "id": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
          "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": 500,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-05T23:54:33.784Z"
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
          "botId": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
          "name": "Website"
        }
      },
      "response": {
        "success": true,
        "channel": {
          "channelId": "c4aff0d1-7804-4e7e-9aa0-02e61b54ea3b",
          "botId": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
          "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
          "name": "Website",
          "enabled": true,
          "createdAt": "2026-12-05T23:54:33.801Z"
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
          "botId": "5ef9b4a6-c378-43bd-beea-a0989d0f0325"
        }
      },
      "response": {
        "success": true,
        "channels": [
          {
            "channelId": "c4aff0d1-7804-4e7e-9aa0-02e61b54ea3b",
            "botId": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
            "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
            "name": "Website",
            "enabled": true,
            "createdAt": "2026-12-05T23:54:33.801Z"
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
          "channelId": "c4aff0d1-7804-4e7e-9aa0-02e61b54ea3b",
          "botId": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
          "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
          "name": "Website",
          "enabled": true,
          "createdAt": "2026-12-05T23:54:33.801Z"
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
          "channelId": "c4aff0d1-7804-4e7e-9aa0-02e61b54ea3b",
          "botId": "5ef9b4a6-c378-43bd-beea-a0989d0f0325",
          "teamId": "bf0edcc5-35ac-4de3-b44d-feae8afb59c7",
          "name": "Website",
          "enabled": false,
          "createdAt": "2026-12-05T23:54:33.801Z"
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
          "id": "01a248a1-81dd-7000-972b-068f8e76c613",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-05T23:54:33.821Z"
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
            "id": "01a248a1-81dd-7000-972b-068f8e76c613",
            "type": "MANUAL",
            "state": "not_synced",
            "lastSync": null,
            "syncInterval": null,
            "createdAt": "2026-12-05T23:54:33.821Z"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a248a1-81dd-7000-972b-068f8e76c613"
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613"
        }
      },
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a248a1-81dd-7000-972b-068f8e76c613",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-05T23:54:33.821Z"
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "syncInterval": "week"
        }
      },
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a248a1-81dd-7000-972b-068f8e76c613",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-05T23:54:33.821Z"
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "limit": 10
        }
      },
      "response": {
        "success": true,
        "dataSourceRows": [
          {
            "id": "01a248a1-81f9-7000-8d25-85f29027d01d",
            "name": "returns.md"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a248a1-81f9-7000-8d25-85f29027d01d"
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "dataSourceRowId": "01a248a1-81f9-7000-8d25-85f29027d01d"
        }
      },
      "response": {
        "success": true,
        "dataSourceRow": {
          "id": "01a248a1-81f9-7000-8d25-85f29027d01d",
          "name": "returns.md",
          "content": "# Returns\n\nItems can be returned within 30 days of delivery, in their original packaging.",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "lastModified": "2026-12-05T23:54:33.849Z",
          "createdAt": "2026-12-05T23:54:33.849Z"
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "dataSourceRows": [
            {
              "id": "01a248a1-81f9-7000-8d25-85f29027d01d",
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613"
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
            "id": "01a248a1-81dd-7000-972b-068f8e76c613",
            "type": "MANUAL",
            "state": "synced",
            "lastSync": "2026-12-05T23:54:33.917Z",
            "syncInterval": "week",
            "createdAt": "2026-12-05T23:54:33.821Z",
            "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
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
          "last": "01a248a1-81dd-7000-972b-068f8e76c613"
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
          "id": "01a248a1-81dd-7000-972b-068f8e76c613",
          "type": "MANUAL",
          "state": "synced",
          "lastSync": "2026-12-05T23:54:33.917Z",
          "syncInterval": "week",
          "createdAt": "2026-12-05T23:54:33.821Z",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
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
          "id": "01a248a1-81dd-7000-972b-068f8e76c613",
          "type": "MANUAL",
          "state": "synced",
          "lastSync": "2026-12-05T23:54:33.917Z",
          "syncInterval": "week",
          "createdAt": "2026-12-05T23:54:33.821Z",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
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
          "id": "a7c3ffe4-edbb-49e7-9f31-78951933428d",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "enabled": false,
          "createdAt": "2026-12-05T23:54:33.954Z",
          "updatedAt": "2026-12-05T23:54:33.954Z"
        },
        "secret": "F7nREcLwLwQjS3L2RdoNPFHQnIxg4xwydCxTDa0ez7A",
        "url": "http://localhost:3000/api/public/hooks/a7c3ffe4-edbb-49e7-9f31-78951933428d/F7nREcLwLwQjS3L2RdoNPFHQnIxg4xwydCxTDa0ez7A"
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
            "id": "a7c3ffe4-edbb-49e7-9f31-78951933428d",
            "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
            "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
            "enabled": false,
            "createdAt": "2026-12-05T23:54:33.954Z",
            "updatedAt": "2026-12-05T23:54:33.954Z"
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
          "id": "a7c3ffe4-edbb-49e7-9f31-78951933428d",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "enabled": false,
          "createdAt": "2026-12-05T23:54:33.954Z",
          "updatedAt": "2026-12-05T23:54:33.954Z"
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
          "id": "a7c3ffe4-edbb-49e7-9f31-78951933428d",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "enabled": false,
          "createdAt": "2026-12-05T23:54:33.954Z",
          "updatedAt": "2026-12-05T23:54:33.964Z"
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
          "id": "a7c3ffe4-edbb-49e7-9f31-78951933428d",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "enabled": true,
          "createdAt": "2026-12-05T23:54:33.954Z",
          "updatedAt": "2026-12-05T23:54:33.970Z"
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
          "id": "a7c3ffe4-edbb-49e7-9f31-78951933428d",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "enabled": true,
          "createdAt": "2026-12-05T23:54:33.954Z",
          "updatedAt": "2026-12-05T23:54:34.028Z"
        },
        "secret": "Ok516Kwel4wtBrePfz-wNKl9kgTBrxC-nsoLERXEDzI",
        "url": "http://localhost:3000/api/public/hooks/a7c3ffe4-edbb-49e7-9f31-78951933428d/Ok516Kwel4wtBrePfz-wNKl9kgTBrxC-nsoLERXEDzI"
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
          "url": "http://127.0.0.1:44597/hooks/relay"
        }
      },
      "response": {
        "success": true,
        "webhook": {
          "id": "01a248a1-82b3-7000-ab80-eb629fbe010b",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:44597/hooks/relay",
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
          "createdAt": "2026-12-05T23:54:34.037Z",
          "updatedAt": "2026-12-05T23:54:34.037Z"
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
            "id": "01a248a1-82b3-7000-ab80-eb629fbe010b",
            "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
            "type": "conversation.started",
            "enabled": false,
            "url": "http://127.0.0.1:44597/hooks/relay",
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
            "createdAt": "2026-12-05T23:54:34.037Z",
            "updatedAt": "2026-12-05T23:54:34.037Z"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a248a1-82b3-7000-ab80-eb629fbe010b"
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
          "id": "01a248a1-82b3-7000-ab80-eb629fbe010b",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:44597/hooks/relay",
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
          "createdAt": "2026-12-05T23:54:34.037Z",
          "updatedAt": "2026-12-05T23:54:34.037Z"
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
          "id": "01a248a1-82b3-7000-ab80-eb629fbe010b",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:44597/hooks/relay",
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
          "createdAt": "2026-12-05T23:54:34.037Z",
          "updatedAt": "2026-12-05T23:54:34.049Z"
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
          "id": "01a248a1-82b3-7000-ab80-eb629fbe010b",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "type": "conversation.started",
          "enabled": true,
          "url": "http://127.0.0.1:44597/hooks/relay",
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
          "createdAt": "2026-12-05T23:54:34.037Z",
          "updatedAt": "2026-12-05T23:54:34.055Z"
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
          "id": "01a248a1-82b3-7000-ab80-eb629fbe010b",
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
          "type": "conversation.started",
          "enabled": true,
          "url": "http://127.0.0.1:44597/hooks/relay",
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
          "createdAt": "2026-12-05T23:54:34.037Z",
          "updatedAt": "2026-12-05T23:54:34.059Z"
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
          "deliveryId": "01a248a1-82cf-7000-939d-45f95f983f89",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:44597/hooks/relay"
          },
          "status": 200,
          "body": "{\"ok\":true}",
          "bodyTruncated": false,
          "durationMs": 8.9,
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
          "deliveryId": "01a248a1-82f2-7000-ab05-e7c94f5b6ded",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:44601/hook"
          },
          "status": null,
          "body": "",
          "bodyTruncated": false,
          "durationMs": 2.2,
          "unresolved": [],
          "error": {
            "code": "network",
            "message": "connect ECONNREFUSED 127.0.0.1:44601"
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
        "conversationId": "01a248a1-8300-7000-8ddc-6729db6d90a1",
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
          "conversationId": "01a248a1-8300-7000-8ddc-6729db6d90a1",
          "message": "How long do I have to return an item?"
        }
      },
      "response": {
        "success": true,
        "conversationId": "01a248a1-8300-7000-8ddc-6729db6d90a1",
        "response": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
        "sources": [
          {
            "rowId": "01a248a1-81f9-7000-8d25-85f29027d01d",
            "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613"
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
            "id": "01a248a1-8300-7000-8ddc-6729db6d90a1",
            "createdAt": "2026-12-05T23:54:34.114Z",
            "initialMessage": null
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a248a1-8300-7000-8ddc-6729db6d90a1"
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
          "conversationId": "01a248a1-8300-7000-8ddc-6729db6d90a1",
          "limit": 10
        }
      },
      "response": {
        "success": true,
        "messages": [
          {
            "id": "3d796af2-c10a-496e-8e49-f239e02e5887",
            "message": "Hello! How can I help you today?",
            "role": "assistant",
            "createdAt": "2026-12-05T23:54:34.123Z"
          },
          {
            "id": "fad93f11-4244-483e-9291-af8b2479af4c",
            "message": "How long do I have to return an item?",
            "role": "user",
            "createdAt": "2026-12-05T23:54:34.168Z"
          },
          {
            "id": "7d4b4396-d703-4a7b-a285-3a28c968cf2f",
            "message": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
            "role": "assistant",
            "createdAt": "2026-12-05T23:54:34.168Z"
          }
        ],
        "pagination": {
          "total": 3,
          "last": "7d4b4396-d703-4a7b-a285-3a28c968cf2f"
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
            "id": "01a248a1-8300-7000-8ddc-6729db6d90a1",
            "createdAt": "2026-12-05T23:54:34.114Z",
            "initialMessage": null,
            "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
            "state": "Open",
            "userData": {},
            "userEmail": null,
            "agent": null
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a248a1-8300-7000-8ddc-6729db6d90a1"
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
          "id": "9ed1dfa3-a991-4d43-a796-04bf18241a6f",
          "message": "Ana here: I can help with your return.",
          "role": "agent",
          "createdAt": "2026-12-05T23:54:34.216Z",
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
          "id": "01a248a1-8300-7000-8ddc-6729db6d90a1",
          "createdAt": "2026-12-05T23:54:34.114Z",
          "initialMessage": null,
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
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
            "id": "3d796af2-c10a-496e-8e49-f239e02e5887",
            "message": "Hello! How can I help you today?",
            "role": "assistant",
            "createdAt": "2026-12-05T23:54:34.123Z"
          },
          {
            "id": "fad93f11-4244-483e-9291-af8b2479af4c",
            "message": "How long do I have to return an item?",
            "role": "user",
            "createdAt": "2026-12-05T23:54:34.168Z"
          },
          {
            "id": "7d4b4396-d703-4a7b-a285-3a28c968cf2f",
            "message": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
            "role": "assistant",
            "createdAt": "2026-12-05T23:54:34.168Z",
            "sources": [
              {
                "rowId": "01a248a1-81f9-7000-8d25-85f29027d01d",
                "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613"
              }
            ]
          },
          {
            "id": "9ed1dfa3-a991-4d43-a796-04bf18241a6f",
            "message": "Ana here: I can help with your return.",
            "role": "agent",
            "createdAt": "2026-12-05T23:54:34.216Z",
            "agent": {
              "name": "Ana",
              "email": "ana@example.com"
            }
          }
        ],
        "pagination": {
          "total": 4,
          "last": "9ed1dfa3-a991-4d43-a796-04bf18241a6f"
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
          "id": "01a248a1-8300-7000-8ddc-6729db6d90a1",
          "createdAt": "2026-12-05T23:54:34.114Z",
          "initialMessage": null,
          "botId": "7bd81cc8-7c05-46dc-9db5-e3925da05100",
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
            "id": "01a248a1-82cf-7000-939d-45f95f983f89",
            "webhookId": "01a248a1-82b3-7000-ab80-eb629fbe010b",
            "eventId": "test:01a248a1-82cf-7000-939d-45f95f983f89",
            "event": "conversation.started",
            "status": "delivered",
            "request": {
              "method": "POST",
              "url": "http://127.0.0.1:44597/hooks/relay",
              "headers": {
                "Content-Type": "application/json"
              },
              "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-05T23:54:34.063Z\",\"conversation\":{\"id\":\"31177231-4683-4285-bcc4-8aefe7dab149\",\"botId\":\"7bd81cc8-7c05-46dc-9db5-e3925da05100\",\"botName\":\"Support\",\"channelType\":\"api\",\"initialMessage\":\"Hello, I have a question.\",\"createdAt\":\"2026-12-05T23:54:34.063Z\"},\"deliveryId\":\"01a248a1-82cf-7000-939d-45f95f983f89\"}"
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
                "startedAt": "2026-12-05T23:54:34.064Z",
                "finishedAt": "2026-12-05T23:54:34.073Z",
                "httpStatus": 200,
                "durationMs": 8.9,
                "error": null,
                "responseBody": "{\"ok\":true}",
                "responseTruncated": false
              }
            ],
            "createdAt": "2026-12-05T23:54:34.064Z",
            "finishedAt": "2026-12-05T23:54:34.073Z"
          },
          {
            "id": "01a248a1-8309-7000-981a-7b60a61fde91",
            "webhookId": "01a248a1-82b3-7000-ab80-eb629fbe010b",
            "eventId": "01a248a1-8303-7000-b1bc-711380ac68f8",
            "event": "conversation.started",
            "status": "delivered",
            "request": {
              "method": "POST",
              "url": "http://127.0.0.1:44597/hooks/relay",
              "headers": {
                "Content-Type": "application/json"
              },
              "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-05T23:54:34.115Z\",\"conversation\":{\"id\":\"01a248a1-8300-7000-8ddc-6729db6d90a1\",\"botId\":\"7bd81cc8-7c05-46dc-9db5-e3925da05100\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-05T23:54:34.114Z\",\"userData\":{}},\"deliveryId\":\"01a248a1-8309-7000-981a-7b60a61fde91\"}"
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
                "startedAt": "2026-12-05T23:54:34.121Z",
                "finishedAt": "2026-12-05T23:54:34.143Z",
                "httpStatus": 200,
                "durationMs": 8.8,
                "error": null,
                "responseBody": "{\"ok\":true}",
                "responseTruncated": false
              }
            ],
            "createdAt": "2026-12-05T23:54:34.121Z",
            "finishedAt": "2026-12-05T23:54:34.143Z"
          }
        ],
        "pagination": {
          "total": 2,
          "last": "01a248a1-8309-7000-981a-7b60a61fde91",
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
          "id": "01a248a1-8309-7000-981a-7b60a61fde91",
          "webhookId": "01a248a1-82b3-7000-ab80-eb629fbe010b",
          "eventId": "01a248a1-8303-7000-b1bc-711380ac68f8",
          "event": "conversation.started",
          "status": "delivered",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:44597/hooks/relay",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-05T23:54:34.115Z\",\"conversation\":{\"id\":\"01a248a1-8300-7000-8ddc-6729db6d90a1\",\"botId\":\"7bd81cc8-7c05-46dc-9db5-e3925da05100\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-05T23:54:34.114Z\",\"userData\":{}},\"deliveryId\":\"01a248a1-8309-7000-981a-7b60a61fde91\"}"
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
              "startedAt": "2026-12-05T23:54:34.121Z",
              "finishedAt": "2026-12-05T23:54:34.143Z",
              "httpStatus": 200,
              "durationMs": 8.8,
              "error": null,
              "responseBody": "{\"ok\":true}",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-05T23:54:34.121Z",
          "finishedAt": "2026-12-05T23:54:34.143Z"
        }
      }
    },
    {
      "summary": "A test send that failed",
      "status": 200,
      "response": {
        "success": true,
        "delivery": {
          "id": "01a248a1-82f2-7000-ab05-e7c94f5b6ded",
          "webhookId": "01a248a1-82e5-7000-83c7-336c8c260d65",
          "eventId": "test:01a248a1-82f2-7000-ab05-e7c94f5b6ded",
          "event": "sync.success",
          "status": "failed",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:44601/hook",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"success\":true,\"results\":{\"totalTokens\":1200,\"modifiedRows\":2,\"totalDocuments\":10,\"unmodifiedRows\":8,\"totalDataSourceRows\":10},\"bot\":\"Support\",\"dataSource\":\"Sample data source\",\"deliveryId\":\"01a248a1-82f2-7000-ab05-e7c94f5b6ded\"}"
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
              "startedAt": "2026-12-05T23:54:34.098Z",
              "finishedAt": "2026-12-05T23:54:34.100Z",
              "httpStatus": null,
              "durationMs": 2.2,
              "error": {
                "code": "network",
                "message": "connect ECONNREFUSED 127.0.0.1:44601"
              },
              "responseBody": "",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-05T23:54:34.098Z",
          "finishedAt": "2026-12-05T23:54:34.100Z"
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
          "id": "01a248a1-8309-7000-981a-7b60a61fde91",
          "webhookId": "01a248a1-82b3-7000-ab80-eb629fbe010b",
          "eventId": "01a248a1-8303-7000-b1bc-711380ac68f8",
          "event": "conversation.started",
          "status": "pending",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:44597/hooks/relay",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-05T23:54:34.115Z\",\"conversation\":{\"id\":\"01a248a1-8300-7000-8ddc-6729db6d90a1\",\"botId\":\"7bd81cc8-7c05-46dc-9db5-e3925da05100\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-05T23:54:34.114Z\",\"userData\":{}},\"deliveryId\":\"01a248a1-8309-7000-981a-7b60a61fde91\"}"
          },
          "unresolved": [],
          "attemptCount": 0,
          "nextAttemptAt": "2026-12-05T23:54:34.263Z",
          "cancelReason": null,
          "error": null,
          "test": false,
          "attempts": [
            {
              "number": 1,
              "status": "succeeded",
              "startedAt": "2026-12-05T23:54:34.121Z",
              "finishedAt": "2026-12-05T23:54:34.143Z",
              "httpStatus": 200,
              "durationMs": 8.8,
              "error": null,
              "responseBody": "{\"ok\":true}",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-05T23:54:34.121Z",
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613",
          "dataSourceRows": [
            {
              "id": "01a248a1-81f9-7000-8d25-85f29027d01d"
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
          "dataSourceId": "01a248a1-81dd-7000-972b-068f8e76c613"
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
          "X-Service-Signature": "sha256=38c3ac2ef676430dbcde70ea7581703c583c3606f06f045279501a12e76a9ca7",
          "X-Service-Delivery-Id": "3ecd00a5-67de-4add-8623-524973d39c3e",
          "X-Service-Event": "conversation.started",
          "X-Relay-Signature": "t=1796514874,v1=0c7099ceef5452d8db5485e9d61ca7a2f273a4384f1ceaa8296388c72353315b"
        },
        "body": {
          "event": "conversation.started",
          "deliveryId": "3ecd00a5-67de-4add-8623-524973d39c3e",
          "conversationId": "0d3aea41-0d06-411a-b855-32a472d291ce",
          "botId": "05c2786d-38f2-4d4c-bbe4-3d22918e22e0",
          "createdAt": "2026-12-05T23:54:34.348Z"
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "3ecd00a5-67de-4add-8623-524973d39c3e",
        "id": "01a248a1-83f0-7000-a236-e8371fea09aa"
      }
    },
    {
      "summary": "relay: the same delivery again",
      "status": 200,
      "request": {
        "headers": {
          "X-Service-Signature": "sha256=38c3ac2ef676430dbcde70ea7581703c583c3606f06f045279501a12e76a9ca7",
          "X-Service-Delivery-Id": "3ecd00a5-67de-4add-8623-524973d39c3e",
          "X-Service-Event": "conversation.started",
          "X-Relay-Signature": "t=1796514874,v1=0c7099ceef5452d8db5485e9d61ca7a2f273a4384f1ceaa8296388c72353315b"
        },
        "body": {
          "event": "conversation.started",
          "deliveryId": "3ecd00a5-67de-4add-8623-524973d39c3e",
          "conversationId": "0d3aea41-0d06-411a-b855-32a472d291ce",
          "botId": "05c2786d-38f2-4d4c-bbe4-3d22918e22e0",
          "createdAt": "2026-12-05T23:54:34.348Z"
        }
      },
      "response": {
        "success": true,
        "duplicate": true,
        "deliveryId": "3ecd00a5-67de-4add-8623-524973d39c3e"
      }
    },
    {
      "summary": "standard-webhooks: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "webhook-id": "msg_e21c5521a39a49bd8b1e13cb3ecf9997",
          "webhook-timestamp": "1796514874",
          "webhook-signature": "v1,UvAOUIuJvmnK3fccHfYPgfLY4FOh8HuafbFffMR5H/o="
        },
        "body": {
          "type": "invoice.paid",
          "timestamp": "2026-12-05T23:54:34.370Z",
          "data": {
            "invoice": "in_1001",
            "amount": 4250
          }
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "msg_e21c5521a39a49bd8b1e13cb3ecf9997",
        "id": "01a248a1-8406-7000-b6a3-29e0854d4fbb"
      }
    },
    {
      "summary": "github: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "X-Hub-Signature-256": "sha256=4037861d485c5ed9b5da3d6eb1528b9af63ce4e133ec14859101a10fc9085693",
          "X-GitHub-Delivery": "2ade02de-ecaa-4a48-a896-6fbf78c642d6",
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
        "id": "01a248a1-8410-7000-b4b1-bae02a2d6174"
      }
    },
    {
      "summary": "github: form-encoded (GitHub default)",
      "status": 202,
      "request": {
        "contentType": "application/x-www-form-urlencoded",
        "headers": {
          "X-Hub-Signature-256": "sha256=b8de88b91908657444e8247dff174917f21c777020b287c5c23fcdeb2d94f36a",
          "X-GitHub-Delivery": "a24a9d77-0638-45c9-b212-83934b284863",
          "X-GitHub-Event": "issues"
        },
        "body": "payload=%7B%22action%22%3A%22closed%22%2C%22issue%22%3A%7B%22number%22%3A7%2C%22title%22%3A%22Checkout+fails+on+Safari%22%7D%7D"
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "8080182f-116b-8e08-a75f-e3d4e276fff1",
        "id": "01a248a1-841e-7000-9211-200f2093d5d6"
      }
    },
    {
      "summary": "stripe: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "Stripe-Signature": "t=1796514874,v1=6663f4c53f53191467d3ac1f0bae20bfb8472233fe8aa0453168b3bec03ef54b"
        },
        "body": {
          "id": "evt_dfd1f3557f6a4d3ea114cb9ab5c7ccdb",
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
        "deliveryId": "evt_dfd1f3557f6a4d3ea114cb9ab5c7ccdb",
        "id": "01a248a1-8422-7000-8242-eb0757a4f967"
      }
    },
    {
      "summary": "hmac: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "X-Shop-Signature": "913dd03bac228502f6d760b18f5ad8201a42277e176ee14179ecaeaf03bba155",
          "X-Shop-Topic": "order.shipped"
        },
        "body": {
          "order": {
            "ref": "A-cf941526",
            "status": "shipped"
          }
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "A-cf941526",
        "id": "01a248a1-8435-7000-a9df-5345ce26f799"
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
            "id": "01a248a1-83f0-7000-a236-e8371fea09aa",
            "source": "relay",
            "deliveryId": "3ecd00a5-67de-4add-8623-524973d39c3e",
            "event": "conversation.started",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": true
            },
            "receivedAt": "2026-12-05T23:54:34.352Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-05T23:54:34.629Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-rPstQF/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-05T23:54:34.619Z",
                "actions": [
                  {
                    "id": "7365966e-0275-8f2f-a92b-ad1dd39402dc",
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
                    "createdAt": "2026-12-05T23:54:34.619Z",
                    "finishedAt": "2026-12-05T23:54:34.619Z"
                  }
                ]
              }
            ]
          },
          {
            "id": "01a248a1-8406-7000-b6a3-29e0854d4fbb",
            "source": "svix",
            "deliveryId": "msg_e21c5521a39a49bd8b1e13cb3ecf9997",
            "event": "invoice.paid",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": false
            },
            "receivedAt": "2026-12-05T23:54:34.374Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-05T23:54:34.629Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-rPstQF/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-05T23:54:34.619Z",
                "actions": [
                  {
                    "id": "ecb31dca-c7ec-8ff3-bdfc-c1285c9f3374",
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
                    "createdAt": "2026-12-05T23:54:34.619Z",
                    "finishedAt": "2026-12-05T23:54:34.619Z"
                  }
                ]
              }
            ]
          },
          {
            "id": "01a248a1-8410-7000-b4b1-bae02a2d6174",
            "source": "github",
            "deliveryId": "427d58d8-2894-8e2b-bb5c-6013c7887717",
            "event": "issues",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": false,
              "test": false
            },
            "receivedAt": "2026-12-05T23:54:34.384Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-05T23:54:34.629Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-rPstQF/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-05T23:54:34.619Z",
                "actions": [
                  {
                    "id": "69c98879-136b-8cdf-8bc6-e85ff68d4d97",
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
                    "createdAt": "2026-12-05T23:54:34.619Z",
                    "finishedAt": "2026-12-05T23:54:34.619Z"
                  }
                ]
              }
            ]
          }
        ],
        "pagination": {
          "total": 6,
          "last": "01a248a1-8410-7000-b4b1-bae02a2d6174",
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
            "id": "01a248a1-8422-7000-8242-eb0757a4f967",
            "source": "stripe",
            "deliveryId": "evt_dfd1f3557f6a4d3ea114cb9ab5c7ccdb",
            "event": "invoice.paid",
            "test": true,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": true
            },
            "receivedAt": "2026-12-05T23:54:34.402Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-05T23:54:34.629Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-rPstQF/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-05T23:54:34.619Z",
                "actions": [
                  {
                    "id": "8098b5a2-bee8-8106-a372-7564407936cb",
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
                    "createdAt": "2026-12-05T23:54:34.619Z",
                    "finishedAt": "2026-12-05T23:54:34.619Z"
                  }
                ]
              }
            ]
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a248a1-8422-7000-8242-eb0757a4f967",
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
          "id": "01a248a1-8422-7000-8242-eb0757a4f967",
          "source": "stripe",
          "deliveryId": "evt_dfd1f3557f6a4d3ea114cb9ab5c7ccdb",
          "event": "invoice.paid",
          "test": true,
          "signed": {
            "deliveryId": true,
            "event": true,
            "test": true
          },
          "receivedAt": "2026-12-05T23:54:34.402Z",
          "run": 0,
          "processedRun": 0,
          "processedAt": "2026-12-05T23:54:34.629Z",
          "headers": {
            "stripe-signature": "t=1796514874,v1=6663f4c53f53191467d3ac1f0bae20bfb8472233fe8aa0453168b3bec03ef54b",
            "content-type": "application/json",
            "host": "127.0.0.1:45941",
            "accept-encoding": "gzip, deflate",
            "content-length": "155",
            "connection": "close"
          },
          "body": "{\"id\":\"evt_dfd1f3557f6a4d3ea114cb9ab5c7ccdb\",\"object\":\"event\",\"type\":\"invoice.paid\",\"livemode\":false,\"data\":{\"object\":{\"id\":\"in_1001\",\"amount_paid\":4250}}}",
          "rules": [
            {
              "run": 0,
              "rule": "log-everything",
              "file": "/tmp/relay-gateway-rPstQF/rules/log.json",
              "result": "matched",
              "error": null,
              "evaluatedAt": "2026-12-05T23:54:34.619Z",
              "actions": [
                {
                  "id": "8098b5a2-bee8-8106-a372-7564407936cb",
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
                  "createdAt": "2026-12-05T23:54:34.619Z",
                  "finishedAt": "2026-12-05T23:54:34.619Z"
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
        "id": "01a248a1-83f0-7000-a236-e8371fea09aa",
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
          "appliedAt": "2026-12-05T23:54:33.636Z",
          "error": null,
          "instance": "vm-8447-da68b8"
        },
        "instances": [
          {
            "id": "vm-8447-da68b8",
            "role": "all",
            "host": "vm",
            "pid": 8447,
            "startedAt": "2026-12-05T23:54:33.593Z",
            "heartbeatAt": "2026-12-05T23:54:33.641Z",
            "config": {
              "version": "e1c8db43971c",
              "generation": 0,
              "appliedAt": "2026-12-05T23:54:33.636Z",
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
        "dir": "/tmp/relay-gateway-rPstQF/rules",
        "loadedAt": "2026-12-05T23:54:33.630Z",
        "rules": [
          {
            "name": "log-everything",
            "file": "/tmp/relay-gateway-rPstQF/rules/log.json",
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
        "dir": "/tmp/relay-gateway-rPstQF/rules",
        "loadedAt": "2026-12-05T23:54:34.675Z",
        "rules": [
          {
            "name": "log-everything",
            "file": "/tmp/relay-gateway-rPstQF/rules/log.json",
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
