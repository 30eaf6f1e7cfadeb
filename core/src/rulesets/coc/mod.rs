//! Call of Cthulhu, the `coc` feature: the 7th-edition checks (`coc7`), the 6th-edition
//! action-point rounds (`coc_ap`) and the 7th-edition house combat and chases
//! (`coc7_house`). The three share one parent because the two combat rulesets are built
//! on the 7th-edition checks (`coc_ap`'s labels and `coc7_house`'s resolution use
//! `coc7`; `coc7_house` shares `coc_ap`'s term tables): those uses stay inside this
//! folder. Beside them: the engines as handles (`handle`), the character sheets of both
//! editions (`sheet`), the batch checks (`batch`) and the chat commands of both editions
//! (`chat`, with 7th-edition `FAR` and the sheet commands `.sc`, `.coc`, `.en`, `.setcoc`).

pub mod batch;
// Without `chat` the module is compiled but not registered (its code leaves the binary).
#[cfg_attr(not(feature = "chat"), allow(dead_code))]
pub mod chat;
pub mod coc7;
pub mod coc7_house;
pub mod coc_ap;
pub(crate) mod handle;
#[cfg(feature = "odds")]
pub(crate) mod odds;
pub mod sheet;
