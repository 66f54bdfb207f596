// The texts of a group's incoming webhooks page in English (spread into en.ts).

/** Incoming webhooks (issue 34). */
export const HOOKS_EN = {
  "hooks.link": "Incoming webhooks of this group",
  "hooks.title": "Incoming webhooks",
  "hooks.back": "Back to members",
  "hooks.help":
    'A hook is a secret address that tools (CI, monitoring) post to in Slack\'s format or as {"title", "text"}. Each post becomes a new topic, or a comment on the topic chosen, made in your name with the hook\'s name on its first line.',
  "hooks.none": "No hooks yet.",
  "hooks.name": "Name shown with each post",
  "hooks.nameHelp": "Up to {n} characters.",
  "hooks.topic": "Topic to comment on (its id, optional)",
  "hooks.topicHelp": "Empty: each post makes a new topic. Otherwise an id such as GROUP,1:1,BOARD,1:2.",
  "hooks.add": "Make hook",
  "hooks.created": "The hook's address, shown this once (copy it now):",
  "hooks.posts.topic": "new topics",
  "hooks.posts.comment": "comments on {topic}",
  "hooks.madeBy": "made by {name}",
  "hooks.remove": "Revoke",
  "hooks.removeLabel": "Revoke {name}",
  "hooks.backRoom": "Back to the room",
  "hooks.roomLink": "Incoming webhooks of this room",
  "hooks.roomHelp":
    'A hook is a secret address that tools (CI, monitoring) post to in Slack\'s format or as {"title", "text"}. Each post becomes a message in this room, in your name with the hook\'s name on its first line.',
  "hooks.posts.chat": "messages in this room",
  "hooks.creatorNote": "A hook stops working when the person who made it leaves the group.",
} as const;
