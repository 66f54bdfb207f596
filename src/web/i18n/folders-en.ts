// The texts of the folder pages and the group's folder setting in English (spread into en.ts).

/** The folders of a board, task list and shared files (issue 31). */
export const FOLDERS_EN = {
  "folders.title.board": "Board folders",
  "folders.title.tasks": "Task folders",
  "folders.title.files": "File folders",
  "folders.manage": "Manage folders",
  "folders.back": "Back to {area}",
  "folders.help": "Folders appear in this order in the list's filter and in the forms.",
  "folders.managersOnly": "Only the group's managers change its folders.",
  "folders.none": "No folders yet.",
  "folders.name": "Folder name",
  "folders.newName": "New folder",
  "folders.nameHelp": "Up to {n} characters.",
  "folders.add": "Add folder",
  "folders.rename": "Rename",
  "folders.up": "Up",
  "folders.upLabel": "Move {name} up",
  "folders.down": "Down",
  "folders.downLabel": "Move {name} down",
  "folders.remove": "Remove",
  "folders.removeLabel": "Remove {name}",
  "folders.removeHelp": "Removing a folder keeps what it held: those items become unclassified.",
  "folders.full": "This area has as many folders as it can hold; remove one to add another.",
  "groupForm.membersManageFolders": "Members may add, rename, order and remove folders",
  "groupForm.membersManageFoldersHelp": "Otherwise only managers change the folders of the board, tasks and files.",
} as const;
