//! `#[derive(FromJson, ToJson)]` for gunbai's argument, result and state types.
//!
//! The JSON entry points (`gunbai::call`, and through it the npm package and the wheel)
//! convert arguments and results with these impls instead of serde's derived visitors:
//! the generated code is a short sequence of calls into the helpers of `gunbai::json`
//! (one instance per field type, or none), which keeps the wasm build small (DESIGN.md, "Why our own JSON
//! derive?"). serde's derives stay on every type for Rust callers, behind the core's `serde`
//! feature (`#[cfg_attr(feature = "serde", derive(...))]`); both read the same
//! `#[serde(...)]` attributes, so one declaration describes both; `cargo test` checks
//! on every conformance vector that both agree (`gunbai::ops::crosscheck`). These derives
//! register the `serde` and `schemars` helper attributes themselves, so a type's attributes
//! need no `cfg_attr` in a build without serde's or schemars' derives.
//!
//! Supported `#[serde]` attributes, with serde's meaning:
//! - container: `rename_all = "snake_case"`, `deny_unknown_fields` (always in effect here), `default`,
//!   `tag = "…"` (internally tagged enums);
//! - field: `rename`, `alias` (one: an older name still read; never written, and not
//!   listed as expected in an unknown-key error), `default`, `default = "path"`, `skip_serializing_if = "path"`,
//!   `flatten` (on a named struct's field whose type is a named struct: its fields are read from
//!   and written to the enclosing object), `with = "…"` on an `Arc<T>` field (the `Arc` impls do it);
//! - variant: `rename`.
//!
//! `FromJson` on a named struct also derives `gunbai::json::FlatJson` (reading its fields from
//! an object another struct flattens it into). serde's own `flatten` buffers the object and
//! loses the error paths, so a struct with a flattened field derives `DeserializeFromJson`
//! instead of serde's `Deserialize`: serde then reads it through `FromJson`.
//!
//! Every object read refuses unknown keys, whether or not the type says
//! `deny_unknown_fields`, unit variants of internally tagged enums included: a new type
//! cannot forget it. Types that arguments, sheets, packs or states contain say
//! `deny_unknown_fields` too, so that serde and the JSON Schema (`additionalProperties:
//! false`) agree; the catalog test in `xtask` checks that for every argument schema.
//!
//! Ranges: a field's `#[schemars(range(min = …, max = …))]` (or `inner(range(…))` on an
//! array's elements) is its one declaration of a numeric range: schemars writes it into the
//! schema as `minimum`/`maximum`, and the reader derived here refuses a number outside it with
//! `out_of_range` at the number's path (RULINGS, "Error codes"); `#[json(rule = "…")]` beside it
//! names the rule that states the range, which the refusal cites.
//!
//! Anything else is a compile error: an attribute this derive does not implement cannot
//! slip through and make it disagree with serde unnoticed.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TS};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::{parse_macro_input, Data, DeriveInput, Fields, LitStr, Type};

#[derive(Default)]
struct Container {
    rename_all: Option<String>,
    default: bool,
    tag: Option<String>,
}

struct Field {
    ident: syn::Ident,
    name: String,
    ty: Type,
    /// `None`: required; `Some(None)`: `Default::default()`; `Some(Some(path))`: `path()`.
    default: Option<Option<syn::Path>>,
    skip_if: Option<syn::Path>,
    flatten: bool,
    /// `#[schemars(range(min = …, max = …))]`: the bounds a number read here must lie within.
    range: Option<Range>,
    /// `#[json(rule = "…")]`: the rule ID a range refusal cites (the rule that states the range).
    rule: Option<String>,
    /// `#[serde(alias = "…")]`: an older name, read when the field's own name is absent.
    alias: Option<String>,
}

fn err(span: Span, msg: &str) -> syn::Error {
    syn::Error::new(span, msg)
}

fn lit_str(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    meta.value()?.parse::<LitStr>()
}

fn container_attrs(attrs: &[syn::Attribute]) -> syn::Result<Container> {
    let mut c = Container::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename_all") {
                let s = lit_str(&meta)?;
                if s.value() != "snake_case" {
                    return Err(err(s.span(), "gunbai-derive supports rename_all = \"snake_case\" only"));
                }
                c.rename_all = Some(s.value());
            } else if meta.path.is_ident("deny_unknown_fields") {
                // Always in effect (see the crate docs).
            } else if meta.path.is_ident("default") {
                c.default = true;
            } else if meta.path.is_ident("tag") {
                c.tag = Some(lit_str(&meta)?.value());
            } else {
                return Err(meta.error("container attribute not supported by gunbai-derive"));
            }
            Ok(())
        })?;
    }
    Ok(c)
}

fn is_type(ty: &Type, name: &str) -> bool {
    match ty {
        Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == name),
        _ => false,
    }
}

fn fields_of(fields: &syn::FieldsNamed) -> syn::Result<Vec<Field>> {
    let mut out = Vec::new();
    for f in &fields.named {
        let ident = f.ident.clone().ok_or_else(|| err(Span::call_site(), "unnamed field"))?;
        let mut field = Field {
            name: ident.unraw().to_string(),
            ident,
            ty: f.ty.clone(),
            default: None,
            skip_if: None,
            flatten: false,
            range: range_of(&f.attrs)?,
            rule: None,
            alias: None,
        };
        for attr in f.attrs.iter().filter(|a| a.path().is_ident("json")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rule") {
                    field.rule = Some(lit_str(&meta)?.value());
                    Ok(())
                } else {
                    Err(meta.error("gunbai-derive: json takes rule = \"…\" only"))
                }
            })?;
        }
        if field.rule.is_some() && field.range.is_none() {
            return Err(err(
                field.ident.span(),
                "gunbai-derive: json(rule) cites the rule of a declared range",
            ));
        }
        for attr in f.attrs.iter().filter(|a| a.path().is_ident("serde")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    field.name = lit_str(&meta)?.value();
                } else if meta.path.is_ident("alias") {
                    if field.alias.is_some() {
                        return Err(meta.error("gunbai-derive supports one alias per field"));
                    }
                    field.alias = Some(lit_str(&meta)?.value());
                } else if meta.path.is_ident("default") {
                    field.default = Some(if meta.input.peek(syn::Token![=]) {
                        Some(lit_str(&meta)?.parse::<syn::Path>()?)
                    } else {
                        None
                    });
                } else if meta.path.is_ident("skip_serializing_if") {
                    field.skip_if = Some(lit_str(&meta)?.parse::<syn::Path>()?);
                } else if meta.path.is_ident("flatten") {
                    field.flatten = true;
                } else if meta.path.is_ident("with") {
                    let _ = lit_str(&meta)?;
                    if !is_type(&f.ty, "Arc") {
                        return Err(meta.error("gunbai-derive supports `with` only on Arc<T> fields"));
                    }
                } else {
                    return Err(meta.error("field attribute not supported by gunbai-derive"));
                }
                Ok(())
            })?;
        }
        out.push(field);
    }
    Ok(out)
}

/// A field's `#[schemars(range(min = …, max = …))]`, the one declaration of its range: schemars
/// writes it into the JSON Schema as `minimum`/`maximum` (and so into the generated `.d.ts`
/// and Python docs), and the reader derived here refuses a number outside it with
/// `out_of_range` (`gunbai::json::in_range`). `inner(range(…))` puts it on the elements of an
/// array (`inner(inner(range(…)))` on those of an array of arrays), as schemars reads it.
/// Other `schemars` attributes are schemars' own.
fn range_of(attrs: &[syn::Attribute]) -> syn::Result<Option<Range>> {
    let mut out = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("schemars")) {
        let metas = attr.parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)?;
        for meta in &metas {
            if let Some(r) = range_in(meta, 0)? {
                out = Some(r);
            }
        }
    }
    Ok(out)
}

use syn::punctuated::Punctuated;

/// The bounds of a range: `(depth of inner, min, max)`.
type Range = (u8, Option<syn::Expr>, Option<syn::Expr>);

fn range_in(meta: &syn::Meta, depth: u8) -> syn::Result<Option<Range>> {
    let syn::Meta::List(list) = meta else { return Ok(None) };
    if list.path.is_ident("inner") {
        let inner = list.parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)?;
        for m in &inner {
            if let Some(r) = range_in(m, depth + 1)? {
                return Ok(Some(r));
            }
        }
        return Ok(None);
    }
    if !list.path.is_ident("range") {
        return Ok(None);
    }
    let (mut min, mut max) = (None, None);
    for nv in list.parse_args_with(Punctuated::<syn::MetaNameValue, syn::Token![,]>::parse_terminated)? {
        if nv.path.is_ident("min") {
            min = Some(nv.value);
        } else if nv.path.is_ident("max") {
            max = Some(nv.value);
        } else {
            return Err(err(Span::call_site(), "gunbai-derive: range takes min and max only"));
        }
    }
    // The reader's message prints the bounds as integers (no float formatter in the wasm).
    for b in [&min, &max].into_iter().flatten() {
        if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Float(f), .. }) = b {
            return Err(err(f.span(), "gunbai-derive: a declared range's bounds are integers"));
        }
    }
    Ok(Some((depth, min, max)))
}

/// serde's `rename_all = "snake_case"` for a variant name.
fn snake(name: &str) -> String {
    let mut s = String::new();
    for (i, ch) in name.char_indices() {
        if i > 0 && ch.is_uppercase() {
            s.push('_');
        }
        s.push(ch.to_ascii_lowercase());
    }
    s
}

fn variant_name(v: &syn::Variant, c: &Container) -> syn::Result<String> {
    let mut name = if c.rename_all.is_some() { snake(&v.ident.to_string()) } else { v.ident.to_string() };
    for attr in v.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                name = lit_str(&meta)?.value();
                Ok(())
            } else {
                Err(meta.error("variant attribute not supported by gunbai-derive"))
            }
        })?;
    }
    Ok(name)
}

/// Derive `gunbai::json::FromJson` (see the crate docs).
#[proc_macro_derive(FromJson, attributes(serde, json, schemars))]
pub fn derive_from_json(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    from_json(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// Derive `gunbai::json::ToJson` (see the crate docs).
#[proc_macro_derive(ToJson, attributes(serde, schemars))]
pub fn derive_to_json(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    to_json(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// The body that reads struct fields from `__obj` (a `&Map`) at `__at`, ending in
/// `Ok(#ctor { … })`. `tag` is the key an internally tagged enum already read. With `check`,
/// unknown keys are checked first (an enum variant's fields); without, the caller checks them
/// (`FlatJson::from_fields`), and a field may be flattened.
///
/// Each field is looked up by name, in declaration order, through helpers that have one
/// instance per field type (shared by every struct).
fn read_fields(ctor: TS, fields: &[Field], c: &Container, tag: Option<&str>, check: bool) -> syn::Result<TS> {
    let j = quote!(::gunbai::json);
    let mut inits = Vec::new();
    for f in fields {
        let ident = &f.ident;
        if f.flatten {
            if check {
                return Err(err(f.ident.span(), "gunbai-derive: flatten only in a struct"));
            }
            let ty = &f.ty;
            inits.push(quote!(#ident: <#ty as #j::FlatJson>::from_fields(__obj, __at)?,));
            continue;
        }
        let name = &f.name;
        // An aliased field is read under whichever of its names the object has.
        let name = match &f.alias {
            Some(alias) => quote!(#j::aliased(__obj, #name, #alias, __at)?),
            None => quote!(#name),
        };
        let opt = quote!(#j::opt(__obj, #name, __at)?);
        let init = match &f.default {
            Some(Some(path)) => {
                quote!(match #opt { ::core::option::Option::Some(v) => v, ::core::option::Option::None => #path() })
            }
            Some(None) => quote!(#opt.unwrap_or_default()),
            None if c.default => {
                quote!(match #opt { ::core::option::Option::Some(v) => v, ::core::option::Option::None => __d.#ident })
            }
            None if is_type(&f.ty, "Option") => quote!(#opt.unwrap_or_default()),
            None => quote!(#j::req(__obj, #name, __at)?),
        };
        let init = match &f.range {
            // One shared check, called with the bounds (no code generated per field beyond the call).
            Some((depth, min, max)) => {
                let min = min.as_ref().map_or(quote!(f64::NEG_INFINITY), |m| quote!((#m) as f64));
                let max = max.as_ref().map_or(quote!(f64::INFINITY), |m| quote!((#m) as f64));
                let rule = match &f.rule {
                    Some(r) => quote!(::core::option::Option::Some(#r)),
                    None => quote!(::core::option::Option::None),
                };
                quote!({ #j::in_range(__obj, #name, __at, (#depth, #min, #max, #rule))?; #init })
            }
            None => init,
        };
        inits.push(quote!(#ident: #init,));
    }
    let check = if check { deny_check(fields, tag) } else { quote!() };
    let default =
        if c.default { quote!(let __d = <Self as ::core::default::Default>::default();) } else { quote!() };
    Ok(quote! {
        #check
        #default
        ::core::result::Result::Ok(#ctor { #(#inits)* })
    })
}

/// The check that every key of `__obj` is one of the fields' names or aliases (or the
/// tag): generated for every object read, so no type can accept an unknown key.
fn deny_check(fields: &[Field], tag: Option<&str>) -> TS {
    let j = quote!(::gunbai::json);
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let aliases: Vec<&str> = fields.iter().filter_map(|f| f.alias.as_deref()).collect();
    let tag = match tag {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    };
    if aliases.is_empty() {
        quote! {
            const __FIELDS: &[&str] = &[#(#names),*];
            #j::deny_unknown(__obj, __FIELDS, #tag, __at)?;
        }
    } else {
        quote! {
            const __FIELDS: &[&str] = &[#(#names),*];
            const __ALIASES: &[&str] = &[#(#aliases),*];
            #j::deny_unknown_aliased(__obj, __FIELDS, __ALIASES, #tag, __at)?;
        }
    }
}

fn from_json(input: &DeriveInput) -> syn::Result<TS> {
    let j = quote!(::gunbai::json);
    let c = container_attrs(&input.attrs)?;
    let name = &input.ident;
    let (impl_g, ty_g, where_g) = input.generics.split_for_impl();
    let mut extra = quote!();
    let body = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => {
                let fields = fields_of(named)?;
                let expected = format!("struct {name}");
                extra = flat_json(input, &fields, &c)?;
                let check = if fields.iter().any(|f| f.flatten) {
                    // Every key of the flattened structs too (collected only here: most structs have none).
                    quote! {
                        let mut __fields = ::std::vec::Vec::new();
                        <Self as #j::FlatJson>::field_names(&mut __fields);
                        #j::deny_unknown(__obj, &__fields, ::core::option::Option::None, __at)?;
                    }
                } else {
                    deny_check(&fields, None)
                };
                quote! {
                    let __obj = #j::object(__v, __at, #expected)?;
                    #check
                    <Self as #j::FlatJson>::from_fields(__obj, __at)
                }
            }
            Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                quote!(::core::result::Result::Ok(Self(#j::FromJson::from_json(__v, __at)?)))
            }
            _ => return Err(err(name.span(), "gunbai-derive: unsupported struct shape")),
        },
        Data::Enum(e) => {
            let mut names = Vec::new();
            for v in &e.variants {
                names.push(variant_name(v, &c)?);
            }
            let mut arms = Vec::new();
            let last = e.variants.len().saturating_sub(1);
            for (i, v) in e.variants.iter().enumerate() {
                let vi = &v.ident;
                let pat = if i == last { quote!(_) } else { quote!(#i) };
                let arm = match (&v.fields, &c.tag) {
                    (Fields::Unit, Some(tag)) => {
                        let check = deny_check(&[], Some(tag));
                        quote!({ #check ::core::result::Result::Ok(Self::#vi) })
                    }
                    (Fields::Unit, None) => quote! {{
                        #j::unit_variant(__payload, __at)?;
                        ::core::result::Result::Ok(Self::#vi)
                    }},
                    (Fields::Named(named), Some(tag)) => {
                        let fields = fields_of(named)?;
                        let read = read_fields(quote!(Self::#vi), &fields, &c, Some(tag), true)?;
                        quote!({ #read })
                    }
                    (Fields::Named(named), None) => {
                        let fields = fields_of(named)?;
                        let read = read_fields(quote!(Self::#vi), &fields, &c, None, true)?;
                        let expected = format!("struct variant {name}::{vi}");
                        quote! {{
                            let (__k, __x) = #j::variant_payload(__payload, __at, "struct variant")?;
                            let __at = &#j::At::Key(__at, __k);
                            let __obj = #j::object(__x, __at, #expected)?;
                            #read
                        }}
                    }
                    (Fields::Unnamed(u), None) if u.unnamed.len() == 1 => quote! {{
                        let (__k, __x) = #j::variant_payload(__payload, __at, "newtype variant")?;
                        ::core::result::Result::Ok(Self::#vi(#j::FromJson::from_json(__x, &#j::At::Key(__at, __k))?))
                    }},
                    _ => return Err(err(vi.span(), "gunbai-derive: unsupported variant shape")),
                };
                arms.push(quote!(#pat => #arm,));
            }
            match &c.tag {
                Some(tag) => {
                    let expected = format!("an object whose `{tag}` names the kind");
                    quote! {
                        const __VARIANTS: &[&str] = &[#(#names),*];
                        let __obj = #j::object(__v, __at, #expected)?;
                        match #j::tag_index(__obj, #tag, __VARIANTS, __at)? {
                            #(#arms)*
                        }
                    }
                }
                None => quote! {
                    const __VARIANTS: &[&str] = &[#(#names),*];
                    let (__i, __payload) = #j::variant_index(__v, __VARIANTS, __at)?;
                    match __i {
                        #(#arms)*
                    }
                },
            }
        }
        Data::Union(_) => return Err(err(name.span(), "gunbai-derive: unions are not supported")),
    };
    Ok(quote! {
        impl #impl_g #j::FromJson for #name #ty_g #where_g {
            #[allow(unused_variables, clippy::match_single_binding)]
            fn from_json(__v: &::serde_json::Value, __at: &#j::At<'_>) -> #j::JsonResult<Self> {
                #body
            }
        }
        #extra
    })
}

/// `FlatJson` for a named struct: its field names and the read of its fields from an object
/// (the object's unknown keys are checked by whoever reads the object: itself, or the
/// struct that flattens it).
fn flat_json(input: &DeriveInput, fields: &[Field], c: &Container) -> syn::Result<TS> {
    let j = quote!(::gunbai::json);
    let name = &input.ident;
    let (impl_g, ty_g, where_g) = input.generics.split_for_impl();
    let pushes = fields.iter().map(|f| {
        let ty = &f.ty;
        let n = &f.name;
        if f.flatten {
            quote!(<#ty as #j::FlatJson>::field_names(__out);)
        } else if let Some(a) = &f.alias {
            quote!(__out.push(#n); __out.push(#a);)
        } else {
            quote!(__out.push(#n);)
        }
    });
    let read = read_fields(quote!(Self), fields, c, None, false)?;
    Ok(quote! {
        impl #impl_g #j::FlatJson for #name #ty_g #where_g {
            fn field_names(__out: &mut ::std::vec::Vec<&'static str>) {
                #(#pushes)*
            }
            #[allow(unused_variables)]
            fn from_fields(__obj: &#j::Map<::std::string::String, ::serde_json::Value>, __at: &#j::At<'_>) -> #j::JsonResult<Self> {
                #read
            }
        }
    })
}

/// Derive serde's `Deserialize` through `gunbai::json::FromJson` (see the crate docs).
#[proc_macro_derive(DeserializeFromJson)]
pub fn derive_deserialize_from_json(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        return err(name.span(), "gunbai-derive: DeserializeFromJson on a generic type")
            .into_compile_error()
            .into();
    }
    quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                ::gunbai::json_de::via_from_json(deserializer)
            }
        }
    }
    .into()
}

/// Statements that put `fields` (bound by reference to their own names) into `__m`.
fn write_fields(fields: &[Field], access: impl Fn(&syn::Ident) -> TS) -> TS {
    let j = quote!(::gunbai::json);
    let puts = fields.iter().map(|f| {
        let name = &f.name;
        let val = access(&f.ident);
        let put = if f.flatten {
            quote!(#j::flatten_into(&mut __m, #j::ToJson::to_json(#val));)
        } else {
            quote!(#j::put(&mut __m, #name, #val);)
        };
        match &f.skip_if {
            Some(path) => quote!(if !#path(#val) { #put }),
            None => put,
        }
    });
    quote!(#(#puts)*)
}

fn to_json(input: &DeriveInput) -> syn::Result<TS> {
    let j = quote!(::gunbai::json);
    let c = container_attrs(&input.attrs)?;
    let name = &input.ident;
    let (impl_g, ty_g, where_g) = input.generics.split_for_impl();
    let body = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => {
                let fields = fields_of(named)?;
                let puts = write_fields(&fields, |id| quote!(&self.#id));
                quote! {
                    let mut __m = #j::Map::new();
                    #puts
                    ::serde_json::Value::Object(__m)
                }
            }
            Fields::Unnamed(u) if u.unnamed.len() == 1 => quote!(#j::ToJson::to_json(&self.0)),
            _ => return Err(err(name.span(), "gunbai-derive: unsupported struct shape")),
        },
        Data::Enum(e) => {
            let mut arms = Vec::new();
            for v in &e.variants {
                let vn = variant_name(v, &c)?;
                let vi = &v.ident;
                let arm = match (&v.fields, &c.tag) {
                    (Fields::Unit, None) => quote!(Self::#vi => #j::string(#vn),),
                    (Fields::Unit, Some(tag)) => quote!(Self::#vi => #j::single(#tag, #j::string(#vn)),),
                    (Fields::Named(named), tag) => {
                        let fields = fields_of(named)?;
                        let binds = fields.iter().map(|f| &f.ident);
                        let puts = write_fields(&fields, |id| id.to_token_stream());
                        let (start, end) = match tag {
                            Some(tag) => (
                                quote!(#j::put_str(&mut __m, #tag, #vn);),
                                quote!(::serde_json::Value::Object(__m)),
                            ),
                            None => (quote!(), quote!(#j::single(#vn, ::serde_json::Value::Object(__m)))),
                        };
                        quote!(Self::#vi { #(#binds),* } => {
                            let mut __m = #j::Map::new();
                            #start
                            #puts
                            #end
                        })
                    }
                    (Fields::Unnamed(u), None) if u.unnamed.len() == 1 => {
                        quote!(Self::#vi(__x) => #j::single(#vn, #j::ToJson::to_json(__x)),)
                    }
                    _ => return Err(err(vi.span(), "gunbai-derive: unsupported variant shape")),
                };
                arms.push(arm);
            }
            quote!(match self { #(#arms)* })
        }
        Data::Union(_) => return Err(err(name.span(), "gunbai-derive: unions are not supported")),
    };
    let write = write_body(input, &c)?;
    Ok(quote! {
        impl #impl_g #j::ToJson for #name #ty_g #where_g {
            fn to_json(&self) -> ::serde_json::Value {
                #body
            }
            // Not in wasm: there the default (through `to_json`) keeps the binary within its
            // size budget (DESIGN.md, "Why does the wasm write results through a Value?").
            #[cfg(not(target_arch = "wasm32"))]
            fn write_json(&self, __out: &mut ::std::vec::Vec<u8>) {
                #write
            }
        }
    })
}

/// `name` as JSON string text (names are written as literals: no escape is needed).
fn quoted(span: Span, name: &str) -> syn::Result<String> {
    if name.chars().any(|ch| ch == '"' || ch == '\\' || ch.is_control()) {
        return Err(err(span, "gunbai-derive: a field or variant name needs no JSON escape"));
    }
    Ok(format!("\"{name}\""))
}

/// Statements that write `fields` (bound by reference to their own names) as object
/// members into `__out`, after whatever members `__first` says were written already.
fn write_members(fields: &[Field], access: impl Fn(&syn::Ident) -> TS) -> syn::Result<TS> {
    let j = quote!(::gunbai::json);
    let mut writes = Vec::new();
    for f in fields {
        let val = access(&f.ident);
        let write = if f.flatten {
            quote!(#j::write_flattened(__out, &mut __first, &#j::ToJson::to_json(#val));)
        } else {
            let key = format!("{}:", quoted(f.ident.span(), &f.name)?);
            quote!(#j::write_key(__out, &mut __first, #key); #j::ToJson::write_json(#val, __out);)
        };
        writes.push(match &f.skip_if {
            Some(path) => quote!(if !#path(#val) { #write }),
            None => write,
        });
    }
    Ok(quote!(#(#writes)*))
}

/// The body of `write_json`: the text `to_json` would give, written directly.
fn write_body(input: &DeriveInput, c: &Container) -> syn::Result<TS> {
    let j = quote!(::gunbai::json);
    let name = &input.ident;
    Ok(match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => {
                let fields = fields_of(named)?;
                let members = write_members(&fields, |id| quote!(&self.#id))?;
                quote! {
                    __out.push(b'{');
                    #[allow(unused_mut, unused_variables)]
                    let mut __first = true;
                    #members
                    __out.push(b'}');
                }
            }
            Fields::Unnamed(u) if u.unnamed.len() == 1 => quote!(#j::ToJson::write_json(&self.0, __out)),
            _ => return Err(err(name.span(), "gunbai-derive: unsupported struct shape")),
        },
        Data::Enum(e) => {
            let mut arms = Vec::new();
            for v in &e.variants {
                let vn = quoted(v.ident.span(), &variant_name(v, c)?)?;
                let vi = &v.ident;
                let arm = match (&v.fields, &c.tag) {
                    (Fields::Unit, None) => quote!(Self::#vi => #j::write_raw(__out, #vn),),
                    (Fields::Unit, Some(tag)) => {
                        let text = format!("{{{}:{vn}}}", quoted(vi.span(), tag)?);
                        quote!(Self::#vi => #j::write_raw(__out, #text),)
                    }
                    (Fields::Named(named), tag) => {
                        let fields = fields_of(named)?;
                        let binds = fields.iter().map(|f| &f.ident);
                        let members = write_members(&fields, |id| id.to_token_stream())?;
                        let (start, first, end) = match tag {
                            Some(tag) => (format!("{{{}:{vn}", quoted(vi.span(), tag)?), false, "}"),
                            None => (format!("{{{vn}:{{"), true, "}}"),
                        };
                        quote!(Self::#vi { #(#binds),* } => {
                            #j::write_raw(__out, #start);
                            #[allow(unused_mut, unused_variables)]
                            let mut __first = #first;
                            #members
                            #j::write_raw(__out, #end);
                        })
                    }
                    (Fields::Unnamed(u), None) if u.unnamed.len() == 1 => {
                        let start = format!("{{{vn}:");
                        quote!(Self::#vi(__x) => {
                            #j::write_raw(__out, #start);
                            #j::ToJson::write_json(__x, __out);
                            __out.push(b'}');
                        })
                    }
                    _ => return Err(err(vi.span(), "gunbai-derive: unsupported variant shape")),
                };
                arms.push(arm);
            }
            quote!(match self { #(#arms)* })
        }
        Data::Union(_) => return Err(err(name.span(), "gunbai-derive: unions are not supported")),
    })
}
