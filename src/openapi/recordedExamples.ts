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
        "teamId": "142bf6b1-4aa9-4c70-a1b5-f282d0e6f01a",
        "botId": "12b573b8-f97b-4522-a959-6a8661786121",
        "channelId": "4bee8a27-2097-40fa-b571-2da028d97c1a",
        "secretKey": "sk_7ANtOevBgOx_fGH6ufM_rK4iNj2p3ogXEtvBj8vs8as"
      }
    },
    {
      "summary": "The team name exists",
      "status": 409,
      "response": {
        "success": false,
        "code": "conflict",
        "message": "A team named \"Acme\" already exists (142bf6b1-4aa9-4c70-a1b5-f282d0e6f01a): bootstrap has run before. Its channel key is shown only once; list its channels and rotate one for a new key, or bootstrap with another team name",
        "teamId": "142bf6b1-4aa9-4c70-a1b5-f282d0e6f01a"
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
          "id": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
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
          "createdAt": "2026-12-04T23:50:39.258Z"
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
            "id": "142bf6b1-4aa9-4c70-a1b5-f282d0e6f01a",
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
            "createdAt": "2026-12-04T23:50:39.201Z"
          },
          {
            "id": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
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
            "createdAt": "2026-12-04T23:50:39.258Z"
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
          "id": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
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
          "createdAt": "2026-12-04T23:50:39.258Z"
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
          "id": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
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
          "createdAt": "2026-12-04T23:50:39.258Z"
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
          "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
          "name": "Helper",
          "welcomeMessage": "Hello! How can I help?"
        }
      },
      "response": {
        "success": true,
        "bot": {
          "id": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
          "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": null,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-04T23:50:39.298Z"
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
          "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324"
        }
      },
      "response": {
        "success": true,
        "bots": [
          {
            "id": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
            "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
            "name": "Helper",
            "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
            "welcomeMessage": "Hello! How can I help?",
            "maxMessageLength": null,
            "powerUps": [
              "human-handoff"
            ],
            "createdAt": "2026-12-04T23:50:39.298Z"
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
          "id": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
          "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": null,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-04T23:50:39.298Z"
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
          "id": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
          "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
          "name": "Helper",
          "instructions": "You are a helpful assistant. Answer from the knowledge you were given.",
          "welcomeMessage": "Hello! How can I help?",
          "maxMessageLength": 500,
          "powerUps": [
            "human-handoff"
          ],
          "createdAt": "2026-12-04T23:50:39.298Z"
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
          "botId": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
          "name": "Website"
        }
      },
      "response": {
        "success": true,
        "channel": {
          "channelId": "ae4c530e-caf1-432e-ba2e-cede9f922062",
          "botId": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
          "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
          "name": "Website",
          "enabled": true,
          "createdAt": "2026-12-04T23:50:39.361Z"
        },
        "secretKey": "sk_LXWgu1vTdEg-UdV5zt7btiDIwhsBNqeN5IZAOzpBSTk"
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
          "botId": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2"
        }
      },
      "response": {
        "success": true,
        "channels": [
          {
            "channelId": "ae4c530e-caf1-432e-ba2e-cede9f922062",
            "botId": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
            "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
            "name": "Website",
            "enabled": true,
            "createdAt": "2026-12-04T23:50:39.361Z"
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
          "channelId": "ae4c530e-caf1-432e-ba2e-cede9f922062",
          "botId": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
          "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
          "name": "Website",
          "enabled": true,
          "createdAt": "2026-12-04T23:50:39.361Z"
        },
        "secretKey": "sk_Iz_pC6qCQA5RVDaewJWGIBasEU50l34zHMnIxQQ3VAQ"
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
          "channelId": "ae4c530e-caf1-432e-ba2e-cede9f922062",
          "botId": "5a682cae-7bd7-4eb1-9fbf-13bdace8c5e2",
          "teamId": "4b7ccf77-3515-4c3b-addd-e997a2a84324",
          "name": "Website",
          "enabled": false,
          "createdAt": "2026-12-04T23:50:39.361Z"
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
          "id": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-04T23:50:39.528Z"
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
            "id": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
            "type": "MANUAL",
            "state": "not_synced",
            "lastSync": null,
            "syncInterval": null,
            "createdAt": "2026-12-04T23:50:39.528Z"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24377-92a7-7000-8cfb-1cc75a71ef5a"
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a"
        }
      },
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-04T23:50:39.528Z"
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "syncInterval": "week"
        }
      },
      "response": {
        "success": true,
        "dataSource": {
          "id": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "syncInterval": null,
          "createdAt": "2026-12-04T23:50:39.528Z"
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "limit": 10
        }
      },
      "response": {
        "success": true,
        "dataSourceRows": [
          {
            "id": "01a24377-93a7-7000-9da9-5ab1fe5636ee",
            "name": "returns.md"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24377-93a7-7000-9da9-5ab1fe5636ee"
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "dataSourceRowId": "01a24377-93a7-7000-9da9-5ab1fe5636ee"
        }
      },
      "response": {
        "success": true,
        "dataSourceRow": {
          "id": "01a24377-93a7-7000-9da9-5ab1fe5636ee",
          "name": "returns.md",
          "content": "# Returns\n\nItems can be returned within 30 days of delivery, in their original packaging.",
          "type": "MANUAL",
          "state": "not_synced",
          "lastSync": null,
          "lastModified": "2026-12-04T23:50:39.783Z",
          "createdAt": "2026-12-04T23:50:39.783Z"
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "dataSourceRows": [
            {
              "id": "01a24377-93a7-7000-9da9-5ab1fe5636ee",
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a"
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
            "id": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
            "type": "MANUAL",
            "state": "synced",
            "lastSync": "2026-12-04T23:50:40.215Z",
            "syncInterval": "week",
            "createdAt": "2026-12-04T23:50:39.528Z",
            "botId": "12b573b8-f97b-4522-a959-6a8661786121",
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
          "last": "01a24377-92a7-7000-8cfb-1cc75a71ef5a"
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
          "id": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "type": "MANUAL",
          "state": "synced",
          "lastSync": "2026-12-04T23:50:40.215Z",
          "syncInterval": "week",
          "createdAt": "2026-12-04T23:50:39.528Z",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
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
          "id": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "type": "MANUAL",
          "state": "synced",
          "lastSync": "2026-12-04T23:50:40.215Z",
          "syncInterval": "week",
          "createdAt": "2026-12-04T23:50:39.528Z",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
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
          "id": "9640b7b9-a4a9-47de-b172-ff1f13c0df34",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "enabled": false,
          "createdAt": "2026-12-04T23:50:40.911Z",
          "updatedAt": "2026-12-04T23:50:40.911Z"
        },
        "secret": "CzF_L20Al_-fnn_o6HL9I_zuwtrBcvwheB9tBt8zubs",
        "url": "http://localhost:3000/api/public/hooks/9640b7b9-a4a9-47de-b172-ff1f13c0df34/CzF_L20Al_-fnn_o6HL9I_zuwtrBcvwheB9tBt8zubs"
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
            "id": "9640b7b9-a4a9-47de-b172-ff1f13c0df34",
            "botId": "12b573b8-f97b-4522-a959-6a8661786121",
            "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
            "enabled": false,
            "createdAt": "2026-12-04T23:50:40.911Z",
            "updatedAt": "2026-12-04T23:50:40.911Z"
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
          "id": "9640b7b9-a4a9-47de-b172-ff1f13c0df34",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "enabled": false,
          "createdAt": "2026-12-04T23:50:40.911Z",
          "updatedAt": "2026-12-04T23:50:40.911Z"
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
          "id": "9640b7b9-a4a9-47de-b172-ff1f13c0df34",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "enabled": false,
          "createdAt": "2026-12-04T23:50:40.911Z",
          "updatedAt": "2026-12-04T23:50:40.944Z"
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
          "id": "9640b7b9-a4a9-47de-b172-ff1f13c0df34",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "enabled": true,
          "createdAt": "2026-12-04T23:50:40.911Z",
          "updatedAt": "2026-12-04T23:50:40.978Z"
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
    }
  ],
  "post /api/admin/bots/{botId}/sync-hooks/{hookId}/secret": [
    {
      "summary": "A new secret and URL",
      "status": 200,
      "response": {
        "success": true,
        "hook": {
          "id": "9640b7b9-a4a9-47de-b172-ff1f13c0df34",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "enabled": true,
          "createdAt": "2026-12-04T23:50:40.911Z",
          "updatedAt": "2026-12-04T23:50:41.671Z"
        },
        "secret": "JH6lUCDkRC1SrzaVC2gQO5W2kugLj3JwUPbIUNgP0-o",
        "url": "http://localhost:3000/api/public/hooks/9640b7b9-a4a9-47de-b172-ff1f13c0df34/JH6lUCDkRC1SrzaVC2gQO5W2kugLj3JwUPbIUNgP0-o"
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
          "url": "http://127.0.0.1:34047/hooks/relay"
        }
      },
      "response": {
        "success": true,
        "webhook": {
          "id": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:34047/hooks/relay",
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
          "createdAt": "2026-12-04T23:50:41.719Z",
          "updatedAt": "2026-12-04T23:50:41.719Z"
        },
        "secret": "whsec_mfoz3DDN/TYE6DrLMnKyDdI02tG5XzZxbVcVWvyxLYE="
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
            "id": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
            "botId": "12b573b8-f97b-4522-a959-6a8661786121",
            "type": "conversation.started",
            "enabled": false,
            "url": "http://127.0.0.1:34047/hooks/relay",
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
            "createdAt": "2026-12-04T23:50:41.719Z",
            "updatedAt": "2026-12-04T23:50:41.719Z"
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24377-9b17-7000-9e4d-ef8f5ddc358c"
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
          "id": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:34047/hooks/relay",
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
          "createdAt": "2026-12-04T23:50:41.719Z",
          "updatedAt": "2026-12-04T23:50:41.719Z"
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
          "id": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "type": "conversation.started",
          "enabled": false,
          "url": "http://127.0.0.1:34047/hooks/relay",
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
          "createdAt": "2026-12-04T23:50:41.719Z",
          "updatedAt": "2026-12-04T23:50:41.879Z"
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
          "id": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "type": "conversation.started",
          "enabled": true,
          "url": "http://127.0.0.1:34047/hooks/relay",
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
          "createdAt": "2026-12-04T23:50:41.719Z",
          "updatedAt": "2026-12-04T23:50:41.977Z"
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
          "id": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
          "type": "conversation.started",
          "enabled": true,
          "url": "http://127.0.0.1:34047/hooks/relay",
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
          "createdAt": "2026-12-04T23:50:41.719Z",
          "updatedAt": "2026-12-04T23:50:41.998Z"
        },
        "secret": "whsec_xf2iQVrHB1XrpeGhGCMGrhGHaENlKsrqA79RkA9xiXQ="
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
          "deliveryId": "3bfdb3bf-1e53-47c3-8dc6-861d367bbcf8",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:34047/hooks/relay"
          },
          "status": 200,
          "body": "{\"ok\":true}",
          "bodyTruncated": false,
          "durationMs": 27.4,
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
          "deliveryId": "fea549aa-ce8b-47c8-adca-ba917859c468",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:41227/hook"
          },
          "status": null,
          "body": "",
          "bodyTruncated": false,
          "durationMs": 5.2,
          "unresolved": [],
          "error": {
            "code": "network",
            "message": "connect ECONNREFUSED 127.0.0.1:41227"
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
        "conversationId": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d",
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
          "conversationId": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d",
          "message": "How long do I have to return an item?"
        }
      },
      "response": {
        "success": true,
        "conversationId": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d",
        "response": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
        "sources": [
          {
            "rowId": "01a24377-93a7-7000-9da9-5ab1fe5636ee",
            "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a"
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
            "id": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d",
            "createdAt": "2026-12-04T23:50:42.160Z",
            "initialMessage": null
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d"
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
          "conversationId": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d",
          "limit": 10
        }
      },
      "response": {
        "success": true,
        "messages": [
          {
            "id": "10fa4bad-b39a-4429-85cd-a33e7cbd276c",
            "message": "Hello! How can I help you today?",
            "role": "assistant",
            "createdAt": "2026-12-04T23:50:42.184Z"
          },
          {
            "id": "46a41869-72da-47f7-9531-5c72965a2120",
            "message": "How long do I have to return an item?",
            "role": "user",
            "createdAt": "2026-12-04T23:50:42.407Z"
          },
          {
            "id": "5b236757-53fd-42de-b2a4-a6edda2f77db",
            "message": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
            "role": "assistant",
            "createdAt": "2026-12-04T23:50:42.407Z"
          }
        ],
        "pagination": {
          "total": 3,
          "last": "5b236757-53fd-42de-b2a4-a6edda2f77db"
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
            "id": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d",
            "createdAt": "2026-12-04T23:50:42.160Z",
            "initialMessage": null,
            "botId": "12b573b8-f97b-4522-a959-6a8661786121",
            "state": "Open",
            "userData": {},
            "userEmail": null,
            "agent": null
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d"
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
          "id": "6ed3dd60-115c-4e7b-8189-590affeca274",
          "message": "Ana here: I can help with your return.",
          "role": "agent",
          "createdAt": "2026-12-04T23:50:42.681Z",
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
          "id": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d",
          "createdAt": "2026-12-04T23:50:42.160Z",
          "initialMessage": null,
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
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
            "id": "10fa4bad-b39a-4429-85cd-a33e7cbd276c",
            "message": "Hello! How can I help you today?",
            "role": "assistant",
            "createdAt": "2026-12-04T23:50:42.184Z"
          },
          {
            "id": "46a41869-72da-47f7-9531-5c72965a2120",
            "message": "How long do I have to return an item?",
            "role": "user",
            "createdAt": "2026-12-04T23:50:42.407Z"
          },
          {
            "id": "5b236757-53fd-42de-b2a4-a6edda2f77db",
            "message": "**Returns**\n\nItems can be returned within 30 days of delivery, in their original packaging.\n\nRefunds reach the original payment method within 5 business days.\n\n_Source: returns.md_",
            "role": "assistant",
            "createdAt": "2026-12-04T23:50:42.407Z",
            "sources": [
              {
                "rowId": "01a24377-93a7-7000-9da9-5ab1fe5636ee",
                "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a"
              }
            ]
          },
          {
            "id": "6ed3dd60-115c-4e7b-8189-590affeca274",
            "message": "Ana here: I can help with your return.",
            "role": "agent",
            "createdAt": "2026-12-04T23:50:42.681Z",
            "agent": {
              "name": "Ana",
              "email": "ana@example.com"
            }
          }
        ],
        "pagination": {
          "total": 4,
          "last": "6ed3dd60-115c-4e7b-8189-590affeca274"
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
          "id": "01a24377-9cec-7000-bf5e-ca49bbe3dd2d",
          "createdAt": "2026-12-04T23:50:42.160Z",
          "initialMessage": null,
          "botId": "12b573b8-f97b-4522-a959-6a8661786121",
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
            "id": "01a24377-9d00-7000-ba88-19009e01bb0d",
            "webhookId": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
            "eventId": "01a24377-9cf3-7000-b526-63329edf2d11",
            "event": "conversation.started",
            "status": "delivered",
            "request": {
              "method": "POST",
              "url": "http://127.0.0.1:34047/hooks/relay",
              "headers": {
                "Content-Type": "application/json"
              },
              "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-04T23:50:42.163Z\",\"conversation\":{\"id\":\"01a24377-9cec-7000-bf5e-ca49bbe3dd2d\",\"botId\":\"12b573b8-f97b-4522-a959-6a8661786121\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-04T23:50:42.160Z\",\"userData\":{}},\"deliveryId\":\"01a24377-9d00-7000-ba88-19009e01bb0d\"}"
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
                "startedAt": "2026-12-04T23:50:42.177Z",
                "finishedAt": "2026-12-04T23:50:42.192Z",
                "httpStatus": 200,
                "durationMs": 9.5,
                "error": null,
                "responseBody": "{\"ok\":true}",
                "responseTruncated": false
              }
            ],
            "createdAt": "2026-12-04T23:50:42.177Z",
            "finishedAt": "2026-12-04T23:50:42.192Z"
          },
          {
            "id": "3bfdb3bf-1e53-47c3-8dc6-861d367bbcf8",
            "webhookId": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
            "eventId": "test:3bfdb3bf-1e53-47c3-8dc6-861d367bbcf8",
            "event": "conversation.started",
            "status": "delivered",
            "request": {
              "method": "POST",
              "url": "http://127.0.0.1:34047/hooks/relay",
              "headers": {
                "Content-Type": "application/json"
              },
              "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-04T23:50:42.038Z\",\"conversation\":{\"id\":\"86e926b2-bc04-4cf0-a8c6-7adc6c1b5b5f\",\"botId\":\"12b573b8-f97b-4522-a959-6a8661786121\",\"botName\":\"Support\",\"channelType\":\"api\",\"initialMessage\":\"Hello, I have a question.\",\"createdAt\":\"2026-12-04T23:50:42.038Z\"},\"deliveryId\":\"3bfdb3bf-1e53-47c3-8dc6-861d367bbcf8\"}"
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
                "startedAt": "2026-12-04T23:50:42.039Z",
                "finishedAt": "2026-12-04T23:50:42.068Z",
                "httpStatus": 200,
                "durationMs": 27.4,
                "error": null,
                "responseBody": "{\"ok\":true}",
                "responseTruncated": false
              }
            ],
            "createdAt": "2026-12-04T23:50:42.039Z",
            "finishedAt": "2026-12-04T23:50:42.068Z"
          }
        ],
        "pagination": {
          "total": 2,
          "last": "3bfdb3bf-1e53-47c3-8dc6-861d367bbcf8",
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
          "id": "01a24377-9d00-7000-ba88-19009e01bb0d",
          "webhookId": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
          "eventId": "01a24377-9cf3-7000-b526-63329edf2d11",
          "event": "conversation.started",
          "status": "delivered",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:34047/hooks/relay",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-04T23:50:42.163Z\",\"conversation\":{\"id\":\"01a24377-9cec-7000-bf5e-ca49bbe3dd2d\",\"botId\":\"12b573b8-f97b-4522-a959-6a8661786121\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-04T23:50:42.160Z\",\"userData\":{}},\"deliveryId\":\"01a24377-9d00-7000-ba88-19009e01bb0d\"}"
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
              "startedAt": "2026-12-04T23:50:42.177Z",
              "finishedAt": "2026-12-04T23:50:42.192Z",
              "httpStatus": 200,
              "durationMs": 9.5,
              "error": null,
              "responseBody": "{\"ok\":true}",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-04T23:50:42.177Z",
          "finishedAt": "2026-12-04T23:50:42.192Z"
        }
      }
    },
    {
      "summary": "A test send that failed",
      "status": 200,
      "response": {
        "success": true,
        "delivery": {
          "id": "fea549aa-ce8b-47c8-adca-ba917859c468",
          "webhookId": "01a24377-9cbb-7000-a84f-972a908f565c",
          "eventId": "test:fea549aa-ce8b-47c8-adca-ba917859c468",
          "event": "sync.success",
          "status": "failed",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:41227/hook",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"success\":true,\"results\":{\"totalTokens\":1200,\"modifiedRows\":2,\"totalDocuments\":10,\"unmodifiedRows\":8,\"totalDataSourceRows\":10},\"bot\":\"Support\",\"dataSource\":\"Sample data source\",\"deliveryId\":\"fea549aa-ce8b-47c8-adca-ba917859c468\"}"
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
              "startedAt": "2026-12-04T23:50:42.123Z",
              "finishedAt": "2026-12-04T23:50:42.128Z",
              "httpStatus": null,
              "durationMs": 5.2,
              "error": {
                "code": "network",
                "message": "connect ECONNREFUSED 127.0.0.1:41227"
              },
              "responseBody": "",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-04T23:50:42.123Z",
          "finishedAt": "2026-12-04T23:50:42.128Z"
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
          "id": "01a24377-9d00-7000-ba88-19009e01bb0d",
          "webhookId": "01a24377-9b17-7000-9e4d-ef8f5ddc358c",
          "eventId": "01a24377-9cf3-7000-b526-63329edf2d11",
          "event": "conversation.started",
          "status": "pending",
          "request": {
            "method": "POST",
            "url": "http://127.0.0.1:34047/hooks/relay",
            "headers": {
              "Content-Type": "application/json"
            },
            "body": "{\"event\":\"conversation.started\",\"timestamp\":\"2026-12-04T23:50:42.163Z\",\"conversation\":{\"id\":\"01a24377-9cec-7000-bf5e-ca49bbe3dd2d\",\"botId\":\"12b573b8-f97b-4522-a959-6a8661786121\",\"botName\":\"Support\",\"channelType\":\"api\",\"createdAt\":\"2026-12-04T23:50:42.160Z\",\"userData\":{}},\"deliveryId\":\"01a24377-9d00-7000-ba88-19009e01bb0d\"}"
          },
          "unresolved": [],
          "attemptCount": 0,
          "nextAttemptAt": "2026-12-04T23:50:43.508Z",
          "cancelReason": null,
          "error": null,
          "test": false,
          "attempts": [
            {
              "number": 1,
              "status": "succeeded",
              "startedAt": "2026-12-04T23:50:42.177Z",
              "finishedAt": "2026-12-04T23:50:42.192Z",
              "httpStatus": 200,
              "durationMs": 9.5,
              "error": null,
              "responseBody": "{\"ok\":true}",
              "responseTruncated": false
            }
          ],
          "createdAt": "2026-12-04T23:50:42.177Z",
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a",
          "dataSourceRows": [
            {
              "id": "01a24377-93a7-7000-9da9-5ab1fe5636ee"
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
          "dataSourceId": "01a24377-92a7-7000-8cfb-1cc75a71ef5a"
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
          "X-Service-Signature": "sha256=34e9cb308707aa19415a7e89f84b3c4b719492c7a7624740be995a0e270cab59",
          "X-Service-Delivery-Id": "0f443829-010b-4678-87c9-73237ac00669",
          "X-Service-Event": "conversation.started",
          "X-Relay-Signature": "t=1796428243,v1=6312ad505207463cb8b3104a30b4d68ab1504be1cfac31a8042251817992fd34"
        },
        "body": {
          "event": "conversation.started",
          "deliveryId": "0f443829-010b-4678-87c9-73237ac00669",
          "conversationId": "148b40ed-383e-49a4-876c-ef45fe33f820",
          "botId": "f3bdf559-400a-469d-901e-84c883aed3fe",
          "createdAt": "2026-12-04T23:50:43.756Z"
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "0f443829-010b-4678-87c9-73237ac00669",
        "id": "01a24377-a332-7000-8294-8b3fc31c54d0"
      }
    },
    {
      "summary": "relay: the same delivery again",
      "status": 200,
      "request": {
        "headers": {
          "X-Service-Signature": "sha256=34e9cb308707aa19415a7e89f84b3c4b719492c7a7624740be995a0e270cab59",
          "X-Service-Delivery-Id": "0f443829-010b-4678-87c9-73237ac00669",
          "X-Service-Event": "conversation.started",
          "X-Relay-Signature": "t=1796428243,v1=6312ad505207463cb8b3104a30b4d68ab1504be1cfac31a8042251817992fd34"
        },
        "body": {
          "event": "conversation.started",
          "deliveryId": "0f443829-010b-4678-87c9-73237ac00669",
          "conversationId": "148b40ed-383e-49a4-876c-ef45fe33f820",
          "botId": "f3bdf559-400a-469d-901e-84c883aed3fe",
          "createdAt": "2026-12-04T23:50:43.756Z"
        }
      },
      "response": {
        "success": true,
        "duplicate": true,
        "deliveryId": "0f443829-010b-4678-87c9-73237ac00669"
      }
    },
    {
      "summary": "standard-webhooks: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "webhook-id": "msg_81dddcac79f04a6bbd8e0e4513c0353d",
          "webhook-timestamp": "1796428243",
          "webhook-signature": "v1,4cRa753B/iCCAkEr3pLOolUKkRgdmSaSV5BxZOOTX5E="
        },
        "body": {
          "type": "invoice.paid",
          "timestamp": "2026-12-04T23:50:43.794Z",
          "data": {
            "invoice": "in_1001",
            "amount": 4250
          }
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "msg_81dddcac79f04a6bbd8e0e4513c0353d",
        "id": "01a24377-a356-7000-b0b9-2ed6219f2dda"
      }
    },
    {
      "summary": "github: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "X-Hub-Signature-256": "sha256=4037861d485c5ed9b5da3d6eb1528b9af63ce4e133ec14859101a10fc9085693",
          "X-GitHub-Delivery": "57cb89ec-20c7-4bfc-a279-f66189bf7757",
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
        "id": "01a24377-a361-7000-beff-d77d664e008d"
      }
    },
    {
      "summary": "github: form-encoded (GitHub default)",
      "status": 202,
      "request": {
        "contentType": "application/x-www-form-urlencoded",
        "headers": {
          "X-Hub-Signature-256": "sha256=b8de88b91908657444e8247dff174917f21c777020b287c5c23fcdeb2d94f36a",
          "X-GitHub-Delivery": "9ee344f5-84de-42c6-857b-beb5e7ae627b",
          "X-GitHub-Event": "issues"
        },
        "body": "payload=%7B%22action%22%3A%22closed%22%2C%22issue%22%3A%7B%22number%22%3A7%2C%22title%22%3A%22Checkout+fails+on+Safari%22%7D%7D"
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "8080182f-116b-8e08-a75f-e3d4e276fff1",
        "id": "01a24377-a369-7000-a4a7-825b1e217435"
      }
    },
    {
      "summary": "stripe: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "Stripe-Signature": "t=1796428243,v1=537821250c5fed2fedd102ae54502d91260add73caba2f108c1460b6ddd08d8e"
        },
        "body": {
          "id": "evt_dca55346091e4f78851879f812e88975",
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
        "deliveryId": "evt_dca55346091e4f78851879f812e88975",
        "id": "01a24377-a37d-7000-aa89-ea0c228b6720"
      }
    },
    {
      "summary": "hmac: a new delivery",
      "status": 202,
      "request": {
        "headers": {
          "X-Shop-Signature": "398804d6d18a13558f29a19db3ae491f94107e391883ec3529478290cb239fc0",
          "X-Shop-Topic": "order.shipped"
        },
        "body": {
          "order": {
            "ref": "A-b9267de0",
            "status": "shipped"
          }
        }
      },
      "response": {
        "success": true,
        "duplicate": false,
        "deliveryId": "A-b9267de0",
        "id": "01a24377-a38a-7000-ae89-2a2d44a13475"
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
            "id": "01a24377-a332-7000-8294-8b3fc31c54d0",
            "source": "relay",
            "deliveryId": "0f443829-010b-4678-87c9-73237ac00669",
            "event": "conversation.started",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": true
            },
            "receivedAt": "2026-12-04T23:50:43.762Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-04T23:50:44.070Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-UhO0vL/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-04T23:50:44.062Z",
                "actions": [
                  {
                    "id": "907ec7a0-ee70-8f02-a479-496c7f587b32",
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
                    "createdAt": "2026-12-04T23:50:44.062Z",
                    "finishedAt": "2026-12-04T23:50:44.062Z"
                  }
                ]
              }
            ]
          },
          {
            "id": "01a24377-a356-7000-b0b9-2ed6219f2dda",
            "source": "svix",
            "deliveryId": "msg_81dddcac79f04a6bbd8e0e4513c0353d",
            "event": "invoice.paid",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": false
            },
            "receivedAt": "2026-12-04T23:50:43.798Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-04T23:50:44.070Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-UhO0vL/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-04T23:50:44.062Z",
                "actions": [
                  {
                    "id": "a50be3f0-2a8b-8798-92d7-36e7fc2c3fda",
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
                    "createdAt": "2026-12-04T23:50:44.062Z",
                    "finishedAt": "2026-12-04T23:50:44.062Z"
                  }
                ]
              }
            ]
          },
          {
            "id": "01a24377-a361-7000-beff-d77d664e008d",
            "source": "github",
            "deliveryId": "427d58d8-2894-8e2b-bb5c-6013c7887717",
            "event": "issues",
            "test": false,
            "signed": {
              "deliveryId": true,
              "event": false,
              "test": false
            },
            "receivedAt": "2026-12-04T23:50:43.809Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-04T23:50:44.070Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-UhO0vL/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-04T23:50:44.062Z",
                "actions": [
                  {
                    "id": "c92de4f5-2586-84ae-bd75-4282d1dcf995",
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
                    "createdAt": "2026-12-04T23:50:44.062Z",
                    "finishedAt": "2026-12-04T23:50:44.062Z"
                  }
                ]
              }
            ]
          }
        ],
        "pagination": {
          "total": 6,
          "last": "01a24377-a361-7000-beff-d77d664e008d",
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
            "id": "01a24377-a37d-7000-aa89-ea0c228b6720",
            "source": "stripe",
            "deliveryId": "evt_dca55346091e4f78851879f812e88975",
            "event": "invoice.paid",
            "test": true,
            "signed": {
              "deliveryId": true,
              "event": true,
              "test": true
            },
            "receivedAt": "2026-12-04T23:50:43.837Z",
            "run": 0,
            "processedRun": 0,
            "processedAt": "2026-12-04T23:50:44.070Z",
            "rules": [
              {
                "run": 0,
                "rule": "log-everything",
                "file": "/tmp/relay-gateway-UhO0vL/rules/log.json",
                "result": "matched",
                "error": null,
                "evaluatedAt": "2026-12-04T23:50:44.062Z",
                "actions": [
                  {
                    "id": "77999b48-ce41-8797-890b-a3439f8a2849",
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
                    "createdAt": "2026-12-04T23:50:44.062Z",
                    "finishedAt": "2026-12-04T23:50:44.062Z"
                  }
                ]
              }
            ]
          }
        ],
        "pagination": {
          "total": 1,
          "last": "01a24377-a37d-7000-aa89-ea0c228b6720",
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
          "id": "01a24377-a37d-7000-aa89-ea0c228b6720",
          "source": "stripe",
          "deliveryId": "evt_dca55346091e4f78851879f812e88975",
          "event": "invoice.paid",
          "test": true,
          "signed": {
            "deliveryId": true,
            "event": true,
            "test": true
          },
          "receivedAt": "2026-12-04T23:50:43.837Z",
          "run": 0,
          "processedRun": 0,
          "processedAt": "2026-12-04T23:50:44.070Z",
          "headers": {
            "stripe-signature": "t=1796428243,v1=537821250c5fed2fedd102ae54502d91260add73caba2f108c1460b6ddd08d8e",
            "content-type": "application/json",
            "host": "127.0.0.1:43113",
            "accept-encoding": "gzip, deflate",
            "content-length": "155",
            "connection": "close"
          },
          "body": "{\"id\":\"evt_dca55346091e4f78851879f812e88975\",\"object\":\"event\",\"type\":\"invoice.paid\",\"livemode\":false,\"data\":{\"object\":{\"id\":\"in_1001\",\"amount_paid\":4250}}}",
          "rules": [
            {
              "run": 0,
              "rule": "log-everything",
              "file": "/tmp/relay-gateway-UhO0vL/rules/log.json",
              "result": "matched",
              "error": null,
              "evaluatedAt": "2026-12-04T23:50:44.062Z",
              "actions": [
                {
                  "id": "77999b48-ce41-8797-890b-a3439f8a2849",
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
                  "createdAt": "2026-12-04T23:50:44.062Z",
                  "finishedAt": "2026-12-04T23:50:44.062Z"
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
        "id": "01a24377-a332-7000-8294-8b3fc31c54d0",
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
          "appliedAt": "2026-12-04T23:50:38.443Z",
          "error": null,
          "instance": "vm-1965-a2df31"
        },
        "instances": [
          {
            "id": "vm-1965-a2df31",
            "role": "all",
            "host": "vm",
            "pid": 1965,
            "startedAt": "2026-12-04T23:50:38.333Z",
            "heartbeatAt": "2026-12-04T23:50:38.465Z",
            "config": {
              "version": "e1c8db43971c",
              "generation": 0,
              "appliedAt": "2026-12-04T23:50:38.443Z",
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
        "dir": "/tmp/relay-gateway-UhO0vL/rules",
        "loadedAt": "2026-12-04T23:50:38.431Z",
        "rules": [
          {
            "name": "log-everything",
            "file": "/tmp/relay-gateway-UhO0vL/rules/log.json",
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
        "dir": "/tmp/relay-gateway-UhO0vL/rules",
        "loadedAt": "2026-12-04T23:50:44.210Z",
        "rules": [
          {
            "name": "log-everything",
            "file": "/tmp/relay-gateway-UhO0vL/rules/log.json",
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
